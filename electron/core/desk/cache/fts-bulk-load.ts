// A first load writes every search entry of the cache in one transaction (snapshot-writers.ts), or
// leaves a table's to a bulk fill after its commit (the retirements': deferred-indexes.ts).
// FTS5 keeps a table's entries as segments and, after each write, does some merging of them
// (automerge); during a bulk load that merging was about a third of the CPU of the retirements'
// search entries (100,000 at --scale 100: 1.37-1.83 s with it, 0.93-1.28 s without; bench/README.md,
// sync), and it is redone anyway as the segments grow. So the load turns it off and gives the tables
// FTS5's default back before it commits: later writes merge as before (the first to write a table
// does about 0.1 s of the merging left). Levels still merge at 16 segments (crisismerge): raising
// that too saved more, but left one merge of 0.35 s per table to the first re-sync, and made
// searches slower until then. The setting is a row of each table's own config table, so a load that
// rolls back rolls it back too.
import { sql } from 'kysely';
import { INVENTORY_ACCOUNTS } from '@shared/desk/api';
import type { SqliteDatabase } from '@platform/db/database';
import type { CacheTables } from './schema';

/** Every search table a first load fills (the retirements' is filled after it). */
const LOADED_FTS_TABLES = [
  'projects_public_fts',
  'projects_internal_fts',
  ...INVENTORY_ACCOUNTS.map((account) => `inventory_${account}_fts`),
];

/** FTS5's default amount of merging after each write, and none during the load. */
const AUTOMERGE = { default: 4, duringLoad: 0 };

// FTS5's configuration statement: a row whose hidden column named after the table holds the option.
// Literals, not parameters: FTS5 takes only an integer, and a bound JS number arrives as a real.
const setAutomerge = (table: string, value: number) =>
  sql<never>`INSERT INTO ${sql.table(table)} (${sql.ref(table)}, rank) VALUES ('automerge', ${sql.lit(value)})`;

/** Turns FTS5's merging off in the caller's transaction for `tables`; the answer turns it back on (before the commit). */
function holdMerges(db: SqliteDatabase<CacheTables>, tables: readonly string[]): () => void {
  for (const table of tables) db.run(setAutomerge(table, AUTOMERGE.duringLoad));
  return () => {
    for (const table of tables) db.run(setAutomerge(table, AUTOMERGE.default));
  };
}

/** Turns FTS5's merging off in the load's transaction; the answer turns it back on (before the commit). */
export const holdFtsMerges = (db: SqliteDatabase<CacheTables>) => holdMerges(db, LOADED_FTS_TABLES);

/**
 * Runs `fill` (a bulk write of search entries, inside the caller's transaction) with FTS5's merging
 * of `tables` off, and on again after it: the search entries a load deferred (deferred-indexes.ts).
 */
export function withFtsMergesHeld<T>(db: SqliteDatabase<CacheTables>, tables: readonly string[], fill: () => T): T {
  const restore = holdMerges(db, tables);
  const result = fill();
  restore();
  return result;
}
