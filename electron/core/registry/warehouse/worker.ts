// The durable transaction worker: moves the credits of finished reservations.
//
// Exactly once: each queued transaction is processed in ONE SQLite transaction that re-reads its
// state, appends the movements and marks transaction and reservation done. A crash (or a second
// worker) therefore finds it either still queued, and does all of it, or processed, and does
// nothing. The queue is the `transactions` table, so nothing is lost across restarts: the worker
// drains it on start, whenever a finish rings the doorbell, and on a short poll.
import type { RegistryContext } from '../context';
import type { BackgroundService } from '../background';
import { RegistryError, conflict } from '../errors';
import { accountId, appendMovement, balanceOf, insertRetirement } from '../ledger';
import type { RegistryTables } from '../schema';
import { warehouseAccountOf } from './inventory';
import { onTransactionQueued, signalTransactionHandled } from './queue-signal';
import { persistExpiredReservations } from './reservations';

type TransactionRow = RegistryTables['transactions'];
type ReservationRecord = RegistryTables['reservations'];

export type TransactionOutcome = 'processed' | 'failed' | 'not_queued';

/** Moves the credits of one queued transaction; returns the retirement made, if any. Throws RegistryError on failure. */
function moveCredits(ctx: RegistryContext, tx: TransactionRow, reservation: ReservationRecord): string | null {
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

/** Processes one transaction if it is still queued. Unexpected errors roll everything back and propagate. */
export function processTransaction(ctx: RegistryContext, transactionId: string): TransactionOutcome {
  const outcome = ctx.db.transaction((): TransactionOutcome => {
    const tx = ctx.db.prepare('SELECT * FROM transactions WHERE id = ?').get(transactionId) as TransactionRow | undefined;
    if (!tx || tx.state !== 'pending_queue') return 'not_queued';
    const reservation = ctx.db.prepare('SELECT * FROM reservations WHERE id = ?').get(tx.reservation_id) as ReservationRecord;
    const now = ctx.clock.now();
    try {
      // a savepoint: a refusal half-way (say, the retirement) undoes the transfer before we record the failure
      const retirementId = ctx.db.transaction(() => moveCredits(ctx, tx, reservation));
      ctx.db.prepare(`UPDATE transactions SET state = 'processed', processed_at = ?, updated_at = ? WHERE id = ?`).run(now, now, tx.id);
      ctx.db
        .prepare(`UPDATE reservations SET state = 'processed', is_complete = 1, retirement_id = ?, updated_at = ? WHERE id = ?`)
        .run(retirementId, now, reservation.id);
      return 'processed';
    } catch (error) {
      if (!(error instanceof RegistryError)) throw error;
      ctx.db
        .prepare(`UPDATE transactions SET state = 'failed', failure_reason = ?, processed_at = ?, updated_at = ? WHERE id = ?`)
        .run(error.message, now, now, tx.id);
      ctx.db.prepare(`UPDATE reservations SET state = 'failed', is_complete = 1, updated_at = ? WHERE id = ?`).run(now, reservation.id);
      return 'failed';
    }
  });
  if (outcome !== 'not_queued') signalTransactionHandled(ctx, transactionId);
  return outcome;
}

/** Ids of queued transactions, oldest first. */
export function queuedTransactionIds(ctx: RegistryContext, limit: number): string[] {
  return (
    ctx.db.prepare(`SELECT id FROM transactions WHERE state = 'pending_queue' ORDER BY created_at, id LIMIT ?`).all(limit) as {
      id: string;
    }[]
  ).map((r) => r.id);
}

/** Processes everything queued now, synchronously (tests and the operator CLI). */
export function processQueue(ctx: RegistryContext): { processed: number; failed: number } {
  const counts = { processed: 0, failed: 0 };
  for (;;) {
    const ids = queuedTransactionIds(ctx, 100);
    if (ids.length === 0) return counts;
    for (const id of ids) {
      const outcome = processTransaction(ctx, id);
      if (outcome !== 'not_queued') counts[outcome] += 1;
    }
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
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  let stopped = false;
  let draining: Promise<void> | undefined;
  let rerun = false;

  const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

  async function drainLoop(): Promise<void> {
    do {
      rerun = false;
      for (;;) {
        if (stopped) return;
        const ids = queuedTransactionIds(ctx, batchSize);
        if (ids.length === 0) break;
        for (const id of ids) {
          try {
            processTransaction(ctx, id);
          } catch (error) {
            // Not a refusal but a fault (disk, bug): the transaction stays queued and is retried at
            // the next poll rather than spun on. Only the id and the error text are logged.
            log(`warehouse worker: transaction ${id} left queued: ${error instanceof Error ? error.message : String(error)}`);
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
  const sweep = setInterval(() => {
    try {
      persistExpiredReservations(ctx);
    } catch (error) {
      log(`warehouse worker: expiry sweep failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }, options.expirySweepMs ?? 60_000);
  sweep.unref();
  wake(); // resume whatever a previous run (or a crash) left queued

  return {
    async stop(): Promise<void> {
      stopped = true;
      unsubscribe();
      clearInterval(poll);
      clearInterval(sweep);
      await draining;
    },
  };
}

export const warehouseTransactionWorker: BackgroundService = {
  name: 'warehouse-transaction-worker',
  start: (ctx) => startTransactionWorker(ctx),
};
