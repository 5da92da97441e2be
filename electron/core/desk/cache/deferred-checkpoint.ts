// The first sync's load writes the whole cache (hundreds of MB at --scale 100) into the WAL in one
// transaction. SQLite's automatic checkpoint at its COMMIT would then, before the sync could report
// done, fsync all of the WAL, copy it into the database file and fsync that too: the cache written
// to disk twice, waited for on the sync's thread (seconds, at that size).
//
// Instead the load holds automatic checkpoints off on its connection, commits (a WAL commit at
// synchronous=NORMAL only writes to the OS, as every commit of the cache does), and checkpoints
// afterwards in the background, in the order SQLite's own checkpoint keeps for power-loss safety:
//   1. the WAL is fsynced on libuv's thread pool (nothing waits for it);
//   2. then, in one synchronous step: the few frames committed since are fsynced, a guard read
//      transaction is opened on a second connection, and the frames are copied into the database
//      file by a PASSIVE checkpoint with synchronous=OFF (the copy alone, no waiting on the disk);
//   3. the database file is fsynced on the thread pool;
//   4. the guard is closed and automatic checkpoints come back.
// The guard's snapshot holds the WAL: no writer may restart it (overwrite its frames) until the
// copied pages are on disk, so a power loss at any point leaves either the WAL or the database file
// whole, as SQLite's own sequence does. A crash of the process loses nothing either way (the OS has
// every write), and a load that fails before its COMMIT never reaches a checkpoint. Closing the
// cache meanwhile finishes what is under way synchronously (cache/index.ts).
//
// Where the sync runs in its worker thread, the checkpoint waits until the run has answered; then
// SQLite's ordinary PASSIVE checkpoint runs on a connection of its own (`checkpointWal`), disk
// waits included: on the sync's thread, idle by then, or on a short-lived worker the host starts
// when that thread has ended or runs again (sync/worker/host-checkpoints.ts). Automatic
// checkpoints come back once it has ended.
import { fsyncSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { sql } from 'kysely';
import { SQLITE_BUSY_TIMEOUT_MS, SqliteDatabase } from '@platform/db/database';
import { openBetterSqlite3 } from '@platform/db/open';
import type { CacheTables } from './schema';

type Db = Pick<SqliteDatabase<unknown>, 'raw'>;

/** Connections whose load is checkpointed by another thread (`setCheckpointElsewhere`). */
const elsewhere = new WeakMap<Db['raw'], () => Promise<void>>();

/** A first load on this connection is to be checkpointed by `checkpoint` (another thread's `checkpointWal`). */
export function setCheckpointElsewhere(db: Db, checkpoint: () => Promise<void>): void {
  elsewhere.set(db.raw, checkpoint);
}

/** Whether this connection's first load is checkpointed by another thread (which builds its deferred indexes too). */
export const checkpointedElsewhere = (db: Db): boolean => elsewhere.has(db.raw);

/**
 * How long `checkpointWal` waits for readers of the copied WAL before it cuts the file: a read of
 * the lists is a few ms; one longer leaves the cut to the next write.
 */
export const WAL_CUT_WAIT_MS = 1_000;

/**
 * The whole checkpoint on a connection of its own (the thread that calls it waits for the disk):
 * what the worker started for a first load's checkpoint does. `before` runs on that connection
 * first (the load's deferred indexes: deferred-indexes.ts), so the checkpoint copies what it wrote.
 *
 * The WAL is then cut to nothing (a TRUNCATE checkpoint, with every frame already copied). Left
 * whole, it would be cut by the next write on any connection, down to the cache's
 * journal_size_limit (cache/index.ts), on that write's thread: after a --scale 100 first load, a
 * WAL of over 500 MB took 0.2 s to cut, the first re-sync's (bench/README.md, sync). Readers still
 * on the old snapshot are waited for up to WAL_CUT_WAIT_MS; past that the cut is left to that write.
 */
export function checkpointWal(file: string, before?: (db: SqliteDatabase<CacheTables>) => void): void {
  const db = openBetterSqlite3(file, { fileMustExist: true });
  try {
    db.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    db.pragma('synchronous = NORMAL');
    before?.(new SqliteDatabase<CacheTables>(db));
    db.pragma('wal_checkpoint(PASSIVE)');
    db.pragma(`busy_timeout = ${WAL_CUT_WAIT_MS}`);
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

interface Held {
  /** wal_autocheckpoint before the load held it off. */
  autocheckpoint: number;
  /** Finishes what is under way now, synchronously (the cache is closing). */
  settle: () => void;
}
const held = new WeakMap<Db['raw'], Held>();

/**
 * Holds SQLite's automatic checkpoints off on this connection until `checkpointInBackground` (or
 * `release`) ends. False when they were held already (or there is no WAL: an in-memory cache).
 */
export function holdAutocheckpoints(db: Db): boolean {
  if (db.raw.memory || held.has(db.raw)) return false;
  const autocheckpoint = db.raw.pragma('wal_autocheckpoint', { simple: true }) as number;
  db.raw.pragma('wal_autocheckpoint = 0');
  held.set(db.raw, { autocheckpoint, settle: () => release(db) });
  return true;
}

/** Gives automatic checkpoints back (a load that rolled back: its frames will never be copied). */
export function release(db: Db): void {
  const state = held.get(db.raw);
  if (!state) return;
  held.delete(db.raw);
  if (db.raw.open) db.raw.pragma(`wal_autocheckpoint = ${state.autocheckpoint}`);
}

/** Finishes a background checkpoint of this connection synchronously, if one is under way (before closing it). */
export function settleBackgroundCheckpoint(db: Db): void {
  held.get(db.raw)?.settle();
}

/**
 * Checkpoints the load just committed without waiting for the disk on this thread (steps above).
 * Settles when it is done (or given up: automatic checkpoints then do it later); never rejects.
 */
export async function checkpointInBackground(db: Db): Promise<void> {
  const state = held.get(db.raw);
  if (!state) return;
  const other = elsewhere.get(db.raw);
  if (other) {
    try {
      await other();
    } catch {
      // Not made: automatic checkpoints take over.
    } finally {
      release(db);
    }
    return;
  }
  const file = db.raw.name;
  let settled = false;
  let wal: FileHandle | null = null;
  let main: FileHandle | null = null;
  let guard: ReturnType<typeof openBetterSqlite3> | null = null;
  const finish = () => {
    if (settled) return;
    settled = true;
    // With the copy made, the database file must be on disk before the guard lets the WAL restart.
    if (guard && main) fsyncSync(main.fd);
    guard?.close();
    release(db);
  };
  state.settle = finish;
  try {
    wal = await open(`${file}-wal`, 'r');
    await wal.sync();
    if (settled || !db.raw.open || db.raw.inTransaction) return;
    main = await open(file, 'r');
    if (settled || !db.raw.open || db.raw.inTransaction) return;
    // One synchronous step: nothing can commit between the WAL's fsync and the copy.
    fsyncSync(wal.fd);
    guard = openBetterSqlite3(file, { fileMustExist: true });
    guard.exec('BEGIN');
    // The first read opens the guard's read transaction (its snapshot of the WAL); sqlite_schema
    // is no table of the cache's schema, so a typed template.
    new SqliteDatabase(guard).first(sql<{ tables: number }>`SELECT count(*) AS tables FROM sqlite_schema`);
    const synchronous = db.raw.pragma('synchronous', { simple: true }) as number;
    db.raw.pragma('synchronous = OFF');
    try {
      db.raw.pragma('wal_checkpoint(PASSIVE)');
    } finally {
      db.raw.pragma(`synchronous = ${synchronous}`);
    }
    await main.sync();
  } catch {
    // Given up (the file went away, the cache closed): automatic checkpoints take over.
  } finally {
    finish();
    await wal?.close().catch(() => {});
    await main?.close().catch(() => {});
  }
}
