// The verification state in the connection's cache (migration 0006): the pinned key, the last
// verified checkpoint with its right frontier, the verified movements, and the evidence of every
// failed check. Each save is one transaction.
import { sql, type Selectable } from 'kysely';
import type { SqliteDatabase } from '@platform/db/database';
import type { CacheTables } from '../cache/schema';
import type { VerifiedCheckpoint } from '@shared/transparency/verifier';
import type { MovementColumns } from './leaves';
import { buildIndexes, dropSecondaryIndexes, withIndexesBuiltAfter } from '@desk/cache/bulk-indexes';
import { hasTempTable, touchReferencesOf } from './match';

type Db = SqliteDatabase<CacheTables>;
export type HistoryState = Selectable<CacheTables['hv_state']>;

export interface Evidence {
  kind: string;
  message: string;
  kept?: string;
  latest?: string;
  /** The proof, the leaves or the records that show it, as text. */
  proof?: string;
}

// A replay's movements wait in a temporary table of the cache's connection until the new root is
// checked: a first sync replays every leaf of the log (hundreds of thousands at scale), which held
// in the worker's heap ran it out of memory, and written to hv_movements directly would need a
// transaction open across the replay's requests. Only a verified replay moves them over.
const REPLAY = sql.table('temp.hv_replay');

/** Starts a replay: an empty temporary table shaped like hv_movements. */
export function startReplay(db: Db): void {
  movingAhead.delete(db);
  db.run(sql`CREATE TEMP TABLE IF NOT EXISTS hv_replay AS SELECT * FROM main.hv_movements WHERE 0`);
  db.run(sql`DELETE FROM ${REPLAY}`);
}

/** Keeps replayed leaves' movements until the replay is verified (or dropped by the next one). */
export function keepReplayed(db: Db, movements: MovementColumns): void {
  if (movements.count === 0) return;
  const keepAll = () => {
    // Up to ROWS_PER_INSERT movements per statement (a first sync keeps ~281,000 at --scale 100);
    // the rest one at a time. One values object, refilled: the n-th value of a statement at key n.
    const full = movements.count - (movements.count % ROWS_PER_INSERT);
    const values: Record<number, unknown> = {};
    const many = db.prepared(insertMany);
    for (let i = 0; i < full; i += ROWS_PER_INSERT) {
      for (let j = 0; j < ROWS_PER_INSERT; j++) putRow(values, j, movements, i + j);
      many.run(values);
    }
    const one = db.prepared(insertOne);
    for (let i = full; i < movements.count; i++) {
      putRow(values, 0, movements, i);
      one.run(values);
    }
  };
  // Inside a first sync's load (one transaction for the whole run, which a failed replay rolls back
  // with it) a savepoint per page only cost the sync's thread time; alone, one transaction per page.
  if (db.raw.inTransaction) keepAll();
  else db.transaction(keepAll);
}

/**
 * Movements per INSERT: each call binds and steps on its own, and 281,000 movements took the sync's
 * thread 0.32-0.36 s in statements of 100 rows against 0.56-0.60 s one row at a time.
 */
const ROWS_PER_INSERT = 100;
/** The columns of a movement, in the order its values are put (putRow). */
const MOVEMENT_COLUMNS = 9;

/** An INSERT of `rows` movements into the replay's table; the value of row r, column c at key r * 9 + c. */
const insertRows = (rows: number) => (v: Record<number, unknown>) =>
  sql`INSERT INTO ${REPLAY} (id, leaf, credit_id, kind, from_account, to_account, amount, created_at, reference) VALUES ${sql.join(
    Array.from(
      { length: rows },
      (_, r) => sql`(${sql.join(Array.from({ length: MOVEMENT_COLUMNS }, (_, c) => v[r * MOVEMENT_COLUMNS + c]))})`,
    ),
  )}`;
// (built once each: a prepared query is compiled once per build function)
const insertMany = insertRows(ROWS_PER_INSERT);
const insertOne = insertRows(1);

/** Puts movement `i`'s values as row `row` of an insertRows statement. */
function putRow(values: Record<number, unknown>, row: number, m: MovementColumns, i: number): void {
  const at = row * MOVEMENT_COLUMNS;
  values[at] = m.id[i];
  values[at + 1] = m.leaf[i];
  values[at + 2] = m.creditId[i];
  values[at + 3] = m.kind[i];
  values[at + 4] = m.fromAccount[i];
  values[at + 5] = m.toAccount[i];
  values[at + 6] = m.amount[i];
  values[at + 7] = m.createdAt[i];
  values[at + 8] = m.reference[i];
}

const replayStarted = (db: Db): boolean => hasTempTable(db, 'hv_replay');

/** Whether the cache holds any verified movement (hv_movements has a row). */
export const holdsVerifiedMovements = (db: Db): boolean => db.first(db.q.selectFrom('hv_movements').select('id').limit(1)) !== undefined;

// A first sync's load is one transaction, and its keep (saveVerified) waits for the last page: moving
// the verified replay's ~300,000 movements into hv_movements and building its index then took the
// sync's thread 0.3-0.4 s at --scale 100 with the registry done and the other core idle. Once the
// replay's root is verified they may move while the pages still come (the sync's idle turns, a
// piece at a time): inside the load's transaction they are kept only with it, and a keep that finds
// a record differing rolls the whole load back, as a failure of the replay does. The load's
// retirements are matched at the keep against every movement either way (keep-verified.ts).

/** Movements moved per piece: about 50 ms of the sync's thread each. */
const MOVE_PIECE = 50_000;

/** A move ahead under way on a connection: hv_movements' indexes it dropped, built again at its end. */
const movingAhead = new WeakMap<Db, { indexes: { name: string; sql: string }[] | null; done: boolean }>();

/**
 * The next piece of moving a replay's movements into hv_movements ahead of its keep, or null when
 * there is none: only inside a transaction (a first sync's load), only into an empty hv_movements.
 * Asked only once the replay's root is verified (history-check.ts); saveVerified moves what is left.
 */
export function moveVerifiedAhead(db: Db): (() => void) | null {
  if (!db.raw.inTransaction || !replayStarted(db)) return null;
  const moving = movingAhead.get(db);
  if (moving?.done) return null;
  return () => {
    if (!moving) {
      // Into rows already there, each index takes them at random places anyway: left to the keep.
      if (holdsVerifiedMovements(db)) return void movingAhead.set(db, { indexes: null, done: true });
      movingAhead.set(db, { indexes: dropSecondaryIndexes(db, 'hv_movements'), done: false });
    }
    movePiece(db, false);
  };
}

/**
 * Moves the next piece; once none is left, builds the dropped indexes and marks the move done. In
 * the load's idle turns (`atKeep` false) the registry is busy on the other core: the index's sort
 * stays on this thread, as the load's own idle builds do; at the keep the registry is done, and a
 * sort helper may take the idle core.
 */
function movePiece(db: Db, atKeep: boolean): void {
  const moving = movingAhead.get(db)!;
  const first = db.first(sql<{ r: number | null }>`SELECT min(rowid) AS r FROM ${REPLAY}`)!.r;
  if (first === null) {
    buildIndexes(db, moving.indexes ?? [], { sortHelper: atKeep });
    moving.done = true;
    return;
  }
  const piece = sql`(SELECT * FROM ${REPLAY} WHERE rowid < ${first + MOVE_PIECE})`;
  touchReferencesOf(db, piece);
  db.run(sql`INSERT OR IGNORE INTO main.hv_movements SELECT * FROM ${piece}`);
  db.run(sql`DELETE FROM ${REPLAY} WHERE rowid < ${first + MOVE_PIECE}`);
}

/** Finishes a move ahead under way (its remaining pieces, the indexes): nothing when none is. */
function finishMovingAhead(db: Db): void {
  const moving = movingAhead.get(db);
  if (!moving) return;
  while (!moving.done) movePiece(db, true);
  movingAhead.delete(db);
}

export function readState(db: Db): HistoryState | undefined {
  return db.first(db.q.selectFrom('hv_state').selectAll());
}

/** A newly verified checkpoint: its frontier, the key it verified under, and its new movements (the replay's). */
export function saveVerified(db: Db, v: { key: string; checkpoint: VerifiedCheckpoint; frontier: string[]; at: number }): void {
  db.transaction(() => {
    if (replayStarted(db)) {
      finishMovingAhead(db);
      touchReferencesOf(db, REPLAY);
      // A first check moves every movement of the log (about 300,000 at --scale 100): into an empty
      // table, its index of references is built once after them rather than taking each at a random place.
      withIndexesBuiltAfter(db, 'hv_movements', '1', () => db.run(sql`INSERT OR IGNORE INTO main.hv_movements SELECT * FROM ${REPLAY}`));
      db.run(sql`DELETE FROM ${REPLAY}`);
    }
    const row = {
      one: 1 as const,
      outcome: 'verified' as const,
      message: null,
      checked_at: v.at,
      verifier_key: v.key,
      size: v.checkpoint.size,
      root: v.checkpoint.root,
      frontier: JSON.stringify(v.frontier),
      checkpoint: v.checkpoint.note,
      signed_at: v.checkpoint.time ?? null,
      verified_at: v.at,
    };
    db.run(db.q.replaceInto('hv_state').values({ ...row, pending: readState(db)?.pending ?? 0 }));
  });
}

/** An outcome that keeps the verified checkpoint as it was (unverifiable, failed, or pending records counted). */
export function saveOutcome(
  db: Db,
  v: { outcome: HistoryState['outcome']; message: string | null; at: number; key?: string; pending?: number },
): void {
  const existing = readState(db);
  if (!existing) {
    db.run(
      db.q.insertInto('hv_state').values({
        one: 1,
        outcome: v.outcome,
        message: v.message,
        checked_at: v.at,
        verifier_key: v.key ?? null,
        size: null,
        root: null,
        frontier: null,
        checkpoint: null,
        signed_at: null,
        verified_at: null,
        pending: v.pending ?? 0,
      }),
    );
    return;
  }
  db.run(
    db.q
      .updateTable('hv_state')
      .set({
        outcome: v.outcome,
        message: v.message,
        checked_at: v.at,
        ...(v.key !== undefined && existing.verifier_key === null ? { verifier_key: v.key } : {}),
        ...(v.pending !== undefined ? { pending: v.pending } : {}),
      })
      .where('one', '=', 1),
  );
}

export function keepEvidence(db: Db, at: number, e: Evidence): void {
  db.run(
    db.q.insertInto('hv_evidence').values({
      found_at: at,
      kind: e.kind,
      message: e.message,
      kept_checkpoint: e.kept ?? null,
      latest_checkpoint: e.latest ?? null,
      proof: e.proof ?? null,
    }),
  );
}

export function evidenceRows(db: Db): Selectable<CacheTables['hv_evidence']>[] {
  return db.all(db.q.selectFrom('hv_evidence').selectAll().orderBy('id'));
}
