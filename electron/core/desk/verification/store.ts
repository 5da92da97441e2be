// The verification state in the connection's cache (migration 0006): the pinned key, the last
// verified checkpoint with its right frontier, the verified movements, and the evidence of every
// failed check. Each save is one transaction.
import { sql, type Selectable } from 'kysely';
import type { SqliteDatabase } from '@platform/db/database';
import type { CacheTables } from '../cache/schema';
import type { VerifiedCheckpoint } from '@shared/transparency/verifier';
import type { KeptMovement, MovementColumns } from './leaves';
import { withIndexesBuiltAfter } from '@desk/cache/bulk-indexes';
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
  db.run(sql`CREATE TEMP TABLE IF NOT EXISTS hv_replay AS SELECT * FROM main.hv_movements WHERE 0`);
  db.run(sql`DELETE FROM ${REPLAY}`);
}

/** Keeps replayed leaves' movements until the replay is verified (or dropped by the next one). */
export function keepReplayed(db: Db, movements: MovementColumns): void {
  if (movements.count === 0) return;
  const insert = db.prepared(putReplayed);
  const keepAll = () => {
    // one row object, refilled for each movement (a first sync keeps ~300,000 at --scale 100)
    const row = {} as KeptMovement;
    for (let i = 0; i < movements.count; i++) {
      row.id = movements.id[i]!;
      row.leaf = movements.leaf[i]!;
      row.credit_id = movements.creditId[i]!;
      row.kind = movements.kind[i]!;
      row.from_account = movements.fromAccount[i]!;
      row.to_account = movements.toAccount[i]!;
      row.amount = movements.amount[i]!;
      row.created_at = movements.createdAt[i]!;
      row.reference = movements.reference[i]!;
      insert.run(row);
    }
  };
  // Inside a first sync's load (one transaction for the whole run, which a failed replay rolls back
  // with it) a savepoint per page only cost the sync's thread time; alone, one transaction per page.
  if (db.raw.inTransaction) keepAll();
  else db.transaction(keepAll);
}

const putReplayed = (v: KeptMovement) =>
  sql`INSERT INTO ${REPLAY} (id, leaf, credit_id, kind, from_account, to_account, amount, created_at, reference)
    VALUES (${v.id}, ${v.leaf}, ${v.credit_id}, ${v.kind}, ${v.from_account}, ${v.to_account}, ${v.amount}, ${v.created_at}, ${v.reference})`;

const replayStarted = (db: Db): boolean => hasTempTable(db, 'hv_replay');

export function readState(db: Db): HistoryState | undefined {
  return db.first(db.q.selectFrom('hv_state').selectAll());
}

/** A newly verified checkpoint: its frontier, the key it verified under, and its new movements (the replay's). */
export function saveVerified(db: Db, v: { key: string; checkpoint: VerifiedCheckpoint; frontier: string[]; at: number }): void {
  db.transaction(() => {
    if (replayStarted(db)) {
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
