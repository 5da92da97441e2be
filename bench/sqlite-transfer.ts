// Not a benchmark of the suite: a one-off measurement for issue 31, item 4 (bench/README.md, "The
// feed's first sync at scale 100"). A first feed sync writes every retirement and its search entry
// on the sync's thread, the one thread that bounds the run. Could a second connection (on a thread
// of its own) write them into a staging file, the sync's connection only copying them in? SQLite
// copies a table into an empty one of the same shape record by record without decoding them (its
// transfer optimization, `INSERT INTO t SELECT * FROM s.t`), and an FTS5 index is its shadow tables.
// This measures the CPU of the sync's connection both ways, on the desk cache's own schema and
// statements, and checks that both caches answer alike. `npx tsx bench/sqlite-transfer.ts`
// (ROWS=100000 by default, about --scale 100's retirements). PAGE_SIZE=16384 makes the caches with
// pages of that size instead of SQLite's default 4 KiB, to compare the two (bench/README.md, sync).
import BetterSqlite3 from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDeskCache, type DeskCache } from '@desk/cache';
import { hashJson, type RetirementColumns } from '@desk/cache/rows';
import { secondaryIndexesOf } from '@desk/cache/bulk-indexes';
import { holdFtsMerges, withFtsMergesHeld } from '@desk/cache/fts-bulk-load';
import { insertRetirement, putMissingRetirementSearch } from '@desk/resources/retirements/writers';

const ROWS = Number(process.env.ROWS ?? 100_000);
const PAGE_SIZE = process.env.PAGE_SIZE ? Number(process.env.PAGE_SIZE) : null;

/** A cache file at `file`, made with PAGE_SIZE's pages when it is set (fixed once the file is in WAL mode). */
function openCache(file: string): DeskCache {
  if (PAGE_SIZE) {
    const raw = new BetterSqlite3(file);
    raw.pragma(`page_size = ${PAGE_SIZE}`);
    raw.pragma('journal_mode = WAL');
    raw.close();
  }
  return openDeskCache(file);
}

// FTS5's shadow tables that hold the index and its rows (its _config keeps the table's settings).
const FTS_SHADOWS = ['data', 'idx', 'content', 'docsize'].map((part) => `retirements_fts_${part}`);

interface Row {
  id: string;
  columns: RetirementColumns;
  json: string;
  hash: string;
}

/** Retirements shaped like the demo registry's: a claimed one in three is redacted. */
function retirements(): Row[] {
  return Array.from({ length: ROWS }, (_, i) => {
    const redacted = i % 3 === 1;
    const project = { id: `project-${i % 10_000}`, fullName: `Reforestation project ${i % 10_000}`, num: `${1000 + (i % 10_000)}` };
    const full = {
      beneficiary: `Beneficiary ${i % 5_000} Holdings`,
      reason: 'Offsetting the emissions of our operations in the reporting year',
      organization_name: `Organization ${i % 300}`,
      serialization: `VCS-${1000 + (i % 10_000)}-${i}-${i + 9}`,
      vintage: `${2000 + (i % 20)}`,
    };
    const columns: RetirementColumns = {
      created_at: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString(),
      is_claimed: i % 3 === 2 ? 0 : 1,
      amount: (i % 997) + 0.5,
      project_id: project.id,
      project_name: project.fullName,
      project_num: project.num,
      ...(redacted ? { beneficiary: null, reason: null, organization_name: null, serialization: null, vintage: null } : full),
    };
    const id = `retirement-${String(i).padStart(8, '0')}`;
    const json = JSON.stringify({ id, ...columns, project, comment: 'x'.repeat(400) });
    return { id, columns, json, hash: hashJson(json) };
  });
}

const cpuMs = (work: () => void): number => {
  const started = process.cpuUsage();
  work();
  const { user, system } = process.cpuUsage(started);
  return (user + system) / 1000;
};

/**
 * Opens the load's transaction as a snapshot load does: secondary indexes dropped, FTS merges held
 * (`holdMerges`). A copy of the FTS5 index must not: FTS5 keeps the index's structure read on the
 * connection, and its next write (the merge setting put back) would write that stale one over the copy.
 */
function openLoad(cache: DeskCache, holdMerges: boolean, dropIndexes = true): () => void {
  const { db } = cache;
  db.raw.exec('BEGIN IMMEDIATE');
  const indexes = dropIndexes ? secondaryIndexesOf(db, 'retirements') : [];
  for (const index of indexes) db.run(sql`DROP INDEX ${sql.id(index.name)}`);
  const restore = holdMerges ? holdFtsMerges(db) : () => {};
  return () => {
    for (const index of indexes) db.raw.exec(index.sql);
    restore();
    db.raw.exec('COMMIT');
  };
}

/** Today's way: every row bound and inserted, then the search entries made from the rows (as the load's deferred fill makes them). */
function loadRowByRow(cache: DeskCache, rows: readonly Row[]): { rows: number; search: number; end: number } {
  const { db } = cache;
  const end = openLoad(cache, true);
  const rowsMs = cpuMs(() => {
    for (const row of rows) db.prepared(insertRetirement).run({ id: row.id, ...row.columns, row_hash: row.hash, json: row.json });
  });
  const searchMs = cpuMs(() => withFtsMergesHeld(db, ['retirements_fts'], () => db.run(putMissingRetirementSearch(db.q))));
  return { rows: rowsMs, search: searchMs, end: cpuMs(end) };
}

/**
 * The other way: the rows and the FTS5 index copied from `staged` (written by another connection),
 * with the table's indexes copied as well when `withIndexes` (kept in place, they are copied in
 * order from the staging file's instead of built by a sort).
 */
function loadByCopy(cache: DeskCache, staged: string, withIndexes: boolean): { rows: number; search: number; end: number } {
  const { db } = cache;
  db.run(sql`ATTACH ${staged} AS staged`);
  const end = openLoad(cache, false, !withIndexes);
  const rowsMs = cpuMs(() => db.raw.exec('INSERT INTO main.retirements SELECT * FROM staged.retirements'));
  // Writing FTS5's shadow tables is refused in better-sqlite3's defensive mode, which unsafe mode lifts.
  db.raw.unsafeMode(true);
  const searchMs = cpuMs(() => {
    for (const table of FTS_SHADOWS) {
      db.raw.exec(`DELETE FROM main.${table}`);
      db.raw.exec(`INSERT INTO main.${table} SELECT * FROM staged.${table}`);
    }
  });
  db.raw.unsafeMode(false);
  const endMs = cpuMs(end);
  db.run(sql`DETACH staged`);
  return { rows: rowsMs, search: searchMs, end: endMs };
}

/** What a reader of the cache sees: every row, and the rowids some searches answer. */
function answers(cache: DeskCache): string {
  const { db } = cache;
  const rows = db.all(sql<{ rowid: number; row_hash: string }>`SELECT rowid, row_hash FROM retirements ORDER BY rowid`);
  const searches = ['Benef*', 'reforestation', 'VCS*', '"Organization 7"', 'project 42*'].map((text) =>
    db.all(sql<{ rowid: number }>`SELECT rowid FROM retirements_fts WHERE retirements_fts MATCH ${text} ORDER BY rank, rowid LIMIT 200`),
  );
  db.raw.exec(`INSERT INTO retirements_fts (retirements_fts) VALUES ('integrity-check')`);
  return JSON.stringify({ rows, searches });
}

const dir = mkdtempSync(join(tmpdir(), 'sqlite-transfer-'));
try {
  const rows = retirements();
  const fmt = (figures: Record<string, number>) =>
    Object.entries(figures)
      .map(([part, ms]) => `${part} ${Math.round(ms)} ms`)
      .join(', ');
  for (let round = 1; round <= 2; round++) {
    const files = ['today', 'staged', 'copied', 'indexed'].map((name) => join(dir, `${name}-${round}.sqlite`));
    const [today, staged, copied, indexed] = files.map(openCache);
    const writer = loadRowByRow(today!, rows);
    // The staging connection's work would run on another thread: measured, but not the sync's.
    const stagedCpu = loadRowByRow(staged!, rows);
    staged!.close();
    const copy = loadByCopy(copied!, files[1]!, false);
    const copyWithIndexes = loadByCopy(indexed!, files[1]!, true);
    const expected = answers(today!);
    const same = expected === answers(copied!) && expected === answers(indexed!);
    const plan = (cache: DeskCache) =>
      cache.db.all(sql<{ name: string }>`SELECT name FROM sqlite_schema WHERE tbl_name = 'retirements' ORDER BY name`);
    const sameIndexes = JSON.stringify(plan(today!)) === JSON.stringify(plan(indexed!));
    const pageSize = today!.db.raw.pragma('page_size', { simple: true }) as number;
    console.log(`round ${round}, ${ROWS} retirements, pages of ${pageSize} bytes, CPU of the sync's connection:`);
    console.log(`  row by row (today):      ${fmt(writer)}`);
    console.log(`  copied from a staging file: ${fmt(copy)} (the staging connection's own: ${fmt(stagedCpu)})`);
    console.log(`  the same, its indexes copied too:  ${fmt(copyWithIndexes)}`);
    console.log(`  the caches answer alike: ${same}; the same indexes: ${sameIndexes}`);
    for (const cache of [today!, copied!, indexed!]) cache.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
