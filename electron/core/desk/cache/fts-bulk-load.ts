// A first load writes every search entry of the cache in one transaction (snapshot-writers.ts).
// FTS5 keeps a table's entries as segments and merges them as it goes: after each write some
// merge work (automerge), and all segments of a level at once when 16 have piled up (crisismerge).
// During a bulk load that merging was about half the CPU of the retirements' search entries
// (100,000 at --scale 100: 1.5-1.8 s without this, 0.75-0.9 s with it; bench/README.md, sync), and
// it is redone anyway as segments grow. So the load holds the merging off and gives the tables
// FTS5's defaults back before it commits: later writes merge as before. The settings are rows of
// each table's own config table, so a load that rolls back rolls them back too.
import { sql } from 'kysely';
import { INVENTORY_ACCOUNTS } from '../../../../shared/desk/api';
import type { SqliteDatabase } from '../../platform/db/database';
import type { CacheTables } from './schema';

/** Every search table a first load fills. */
const LOADED_FTS_TABLES = [
  'retirements_fts',
  'projects_public_fts',
  'projects_internal_fts',
  ...INVENTORY_ACCOUNTS.map((account) => `inventory_${account}_fts`),
];

/** FTS5's defaults, and what the load uses: no merge after each write, a crisis merge only at 64 segments. */
const DEFAULTS = { automerge: 4, crisismerge: 16 };
const DURING_LOAD = { automerge: 0, crisismerge: 64 };

// FTS5's configuration statement: a row whose hidden column named after the table holds the option.
// Literals, not parameters: FTS5 takes only an integer, and a bound JS number arrives as a real.
const configure = (table: string, option: string, value: number) =>
  sql<never>`INSERT INTO ${sql.table(table)} (${sql.ref(table)}, rank) VALUES (${sql.lit(option)}, ${sql.lit(value)})`;

function configureAll(db: SqliteDatabase<CacheTables>, settings: Record<string, number>): void {
  for (const table of LOADED_FTS_TABLES) for (const [option, value] of Object.entries(settings)) db.run(configure(table, option, value));
}

/** Holds FTS5's merging off in the load's transaction; the answer gives the defaults back (before the commit). */
export function holdFtsMerges(db: SqliteDatabase<CacheTables>): () => void {
  configureAll(db, DURING_LOAD);
  return () => configureAll(db, DEFAULTS);
}
