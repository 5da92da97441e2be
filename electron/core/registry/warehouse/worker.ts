// The durable transaction worker: moves the credits of finished reservations.
//
// Exactly once: each queued transaction is claimed and processed in ONE database transaction that
// re-reads its state, appends the movements and marks transaction and reservation done. A crash (or
// a second worker, in this process or another) therefore finds it either still queued, and does all
// of it, or processed, and does nothing; on PostgreSQL the claim is a row lock taken with SKIP
// LOCKED (processNextTransaction), so the workers of several processes share the queue without
// waiting for each other. The queue is the `transactions` table, so nothing is lost across
// restarts: the worker drains it on start, whenever a finish rings the doorbell, and on a short poll.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { RegistryContext } from '../context';
import { failureEpisodes, repeatSafely, stderrLog, type BackgroundService } from '../background';
import { RegistryError, conflict } from '../errors';
import { accountId, appendMovement, balanceOf, insertRetirement } from '../ledger';
import type { RegistryTables } from '../schema';
import { warehouseAccountOf } from './inventory';
import { onTransactionQueued, signalTransactionHandled } from './queue-signal';
import { anythingQueued } from './queue-peek';
import { persistExpiredReservations } from './reservations';

type QueuedTransaction = Selectable<RegistryTables['transactions']>;
type StoredReservation = Selectable<RegistryTables['reservations']>;

// The worker's statements, compiled once per connection (SyncDatabase.prepared). The queued state is
// written as a literal, so SQLite can use the transactions_queue partial index.
type Q = Kysely<RegistryTables>;
const queuedState = sql.lit<'pending_queue'>('pending_queue');
const reservationById = (v: { id: string }, q: Q) => q.selectFrom('reservations').selectAll().where('id', '=', v.id);
const markTransaction = (v: { id: string; state: 'processed' | 'failed'; reason: string | null; now: number }, q: Q) =>
  q
    .updateTable('transactions')
    .set({ state: v.state, failure_reason: v.reason, processed_at: v.now, updated_at: v.now })
    .where('id', '=', v.id);
const completeReservation = (v: { id: string; state: 'processed' | 'failed'; retirementId: string | null; now: number }, q: Q) =>
  q
    .updateTable('reservations')
    .set({ state: v.state, is_complete: 1, retirement_id: v.retirementId, updated_at: v.now })
    .where('id', '=', v.id);
const queuedById = (v: { id: string }, q: Q) =>
  q.selectFrom('transactions').selectAll().where('id', '=', v.id).where('state', '=', queuedState);
const oldestQueued = (_: Record<string, never>, q: Q) =>
  q.selectFrom('transactions').selectAll().where('state', '=', queuedState).orderBy('created_at').orderBy('id').limit(1);
const queuedIds = (v: { limit: number }, q: Q) =>
  q.selectFrom('transactions').select('id').where('state', '=', queuedState).orderBy('created_at').orderBy('id').limit(v.limit);
/**
 * Claims: on an engine that locks rows (`claimRows`: PostgreSQL) the queued row is locked until the
 * transaction ends, and rows another worker locked are skipped (FOR UPDATE SKIP LOCKED); SQLite's
 * write transaction already excludes every other worker.
 */
const claimById = (v: { id: string }, q: Q) => queuedById(v, q).forUpdate().skipLocked();
const claimOldest = (v: Record<string, never>, q: Q) => oldestQueued(v, q).forUpdate().skipLocked();

export type TransactionOutcome = 'processed' | 'failed' | 'not_queued';

/** Moves the credits of one queued transaction; returns the retirement made, if any. Throws RegistryError on failure. */
function moveCredits(ctx: RegistryContext, tx: QueuedTransaction, reservation: StoredReservation): string | null {
  const warehouse = warehouseAccountOf(ctx, reservation.organization_id);
  // The operator may not withdraw held credits (withdrawFromWarehouse), but a transfer must never
  // overdraw even if something else did: the ledger trigger would refuse too.
  if (!warehouse || balanceOf(ctx, warehouse, reservation.credit_id) < reservation.amount) {
    throw conflict(`The warehouse no longer holds the ${reservation.amount / 1e6} t of ${reservation.credit_id} this reservation needs`);
  }
  const receiverInventory = accountId(ctx, { kind: 'inventory', organizationId: tx.receiver_id });
  appendMovement(ctx, {
    creditId: reservation.credit_id,
    kind: 'transfer',
    from: warehouse,
    to: receiverInventory,
    amount: reservation.amount,
    reference: tx.id,
  });
  if (tx.action !== 'transfer_retire') return null;
  return insertRetirement(ctx, {
    creditId: reservation.credit_id,
    fromAccount: receiverInventory,
    amount: reservation.amount,
    source: 'warehouse',
    organizationId: tx.receiver_id,
    beneficiary: tx.beneficiary_name ?? '',
    reason: tx.retirement_reason ?? '',
    comment: tx.retirement_comment ?? '',
  });
}

/** Moves a claimed, queued transaction's credits (or records why not), inside the caller's transaction. */
function processClaimed(ctx: RegistryContext, tx: QueuedTransaction): 'processed' | 'failed' {
  // a transaction's reservation is never deleted (a foreign key holds it)
  const reservation = ctx.db.prepared(reservationById).first({ id: tx.reservation_id })!;
  const now = ctx.clock.now();
  try {
    // a savepoint: a refusal half-way (say, the retirement) undoes the transfer before we record the failure
    const retirementId = ctx.db.transaction(() => moveCredits(ctx, tx, reservation));
    ctx.db.prepared(markTransaction).run({ id: tx.id, state: 'processed', reason: null, now });
    ctx.db.prepared(completeReservation).run({ id: reservation.id, state: 'processed', retirementId, now });
    return 'processed';
  } catch (error) {
    if (!(error instanceof RegistryError)) throw error;
    ctx.db.prepared(markTransaction).run({ id: tx.id, state: 'failed', reason: error.message, now });
    ctx.db.prepared(completeReservation).run({ id: reservation.id, state: 'failed', retirementId: null, now });
    return 'failed';
  }
}

/**
 * Processes one transaction if it is still queued and no other worker has claimed it ('not_queued'
 * otherwise: another process is processing it, or did). Unexpected errors roll everything back and
 * propagate.
 */
export function processTransaction(ctx: RegistryContext, transactionId: string): TransactionOutcome {
  const outcome = ctx.db.transaction((): TransactionOutcome => {
    const tx = ctx.db.prepared(ctx.db.claimRows ? claimById : queuedById).first({ id: transactionId });
    return tx ? processClaimed(ctx, tx) : 'not_queued';
  });
  if (outcome !== 'not_queued') signalTransactionHandled(ctx, transactionId);
  return outcome;
}

/**
 * Claims the oldest queued transaction no other worker holds and processes it, in one transaction:
 * on PostgreSQL the claim is a row lock taken with SKIP LOCKED, so workers in several processes
 * each take a different transaction and never wait for one another's claims, and a claim lasts
 * exactly as long as its database transaction: a process that dies (even SIGKILL) loses its
 * connection, PostgreSQL rolls its transaction back, and the work is queued again for any other
 * worker. Answers 'empty' when nothing is left to claim.
 */
export function processNextTransaction(ctx: RegistryContext): 'processed' | 'failed' | 'empty' {
  let claimed: string | undefined;
  const outcome = ctx.db.transaction((): 'processed' | 'failed' | 'empty' => {
    const tx = ctx.db.prepared(ctx.db.claimRows ? claimOldest : oldestQueued).first({});
    claimed = tx?.id;
    return tx ? processClaimed(ctx, tx) : 'empty';
  });
  if (claimed !== undefined) signalTransactionHandled(ctx, claimed);
  return outcome;
}

/** Ids of queued transactions, oldest first. */
export function queuedTransactionIds(ctx: RegistryContext, limit: number): string[] {
  return ctx.db
    .prepared(queuedIds)
    .all({ limit })
    .map((r) => r.id);
}

/**
 * Processes everything queued now that no other worker has claimed, synchronously (tests and the
 * operator CLI).
 */
export function processQueue(ctx: RegistryContext): { processed: number; failed: number } {
  const counts = { processed: 0, failed: 0 };
  for (;;) {
    const outcome = processNextTransaction(ctx);
    if (outcome === 'empty') return counts;
    counts[outcome] += 1;
  }
}

export interface TransactionWorkerOptions {
  /** Safety-net poll; finishes ring the doorbell, so this only matters for work queued elsewhere. */
  pollMs?: number;
  /** How often lapsed reservations get 'expired' stored (readers never depend on it). */
  expirySweepMs?: number;
  /** Transactions processed before yielding to the event loop, so HTTP keeps being served. */
  batchSize?: number;
  log?: (line: string) => void;
}

export function startTransactionWorker(ctx: RegistryContext, options: TransactionWorkerOptions = {}) {
  const pollMs = options.pollMs ?? 250;
  const batchSize = options.batchSize ?? 32;
  const log = options.log ?? stderrLog;
  // a database outage fails every poll: logged when it starts and when the queue moves again
  const drainEpisodes = failureEpisodes('warehouse worker', log);
  let stopped = false;
  let draining: Promise<void> | undefined;
  let rerun = false;

  const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

  async function drainLoop(): Promise<void> {
    do {
      rerun = false;
      drain: for (;;) {
        if (stopped) return;
        try {
          const work = await anythingQueued(ctx);
          drainEpisodes.succeeded();
          if (!work) break drain;
        } catch (error) {
          drainEpisodes.failed(error, 'queued transactions left queued');
          return;
        }
        if (stopped) return;
        for (let i = 0; i < batchSize; i++) {
          try {
            const outcome = processNextTransaction(ctx);
            drainEpisodes.succeeded();
            if (outcome === 'empty') break drain;
          } catch (error) {
            // Not a refusal but a fault (database unreachable, disk, bug): the transaction stays
            // queued and is retried at the next poll rather than spun on. Only the error text is logged.
            drainEpisodes.failed(error, 'queued transactions left queued');
            return;
          }
        }
        await yieldToEventLoop();
      }
    } while (rerun && !stopped);
  }

  function wake(): void {
    if (stopped) return;
    if (draining) {
      rerun = true;
      return;
    }
    draining = drainLoop().finally(() => {
      draining = undefined;
    });
  }

  const unsubscribe = onTransactionQueued(ctx, () => setImmediate(wake));
  const poll = setInterval(wake, pollMs);
  poll.unref();
  const sweep = repeatSafely('reservation expiry sweep', options.expirySweepMs ?? 60_000, () => persistExpiredReservations(ctx), { log });
  wake(); // resume whatever a previous run (or a crash) left queued

  return {
    async stop(): Promise<void> {
      stopped = true;
      unsubscribe();
      clearInterval(poll);
      await sweep.stop();
      await draining;
    },
  };
}

export const warehouseTransactionWorker: BackgroundService = {
  name: 'warehouse-transaction-worker',
  start: (ctx, options) => startTransactionWorker(ctx, options?.log ? { log: options.log } : {}),
};
