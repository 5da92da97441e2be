// The cache refuses a record that differs from its verified leaf at the moment it is written, so a
// synced record is never shown beside "history verified" before it matched (docs/transparency.md).
// TEMP triggers on this connection (each connection that writes the cache installs them: the sync's
// and the desk service's) abort the write of a retirement whose `retire` movement, or of a
// back-office ledger movement whose leaf, the desk verified with other content; the writer's
// transaction then rolls back whole. The refused record and its leaf are handed to JS on the way
// (the hv_refused function) and kept as evidence by settleRefusals once the transaction is over.
// A record no verified leaf covers yet is written, counted as pending, and matched when its leaf is
// verified (check.ts), before that sync writes anything.
import { sql } from 'kysely';
import type { SqliteDatabase } from '@platform/db/database';
import type { CacheTables } from '../cache/schema';
import { HISTORY_CHANGED } from './check';
import { holdsVerifiedMovements, keepEvidence, readState, saveOutcome } from './store';
import type { Mismatch } from './match';
import { contentMessage } from './new-leaves';

type Db = SqliteDatabase<CacheTables>;

/** The refusals each connection saw and has not kept as evidence yet. */
const refusals = new WeakMap<Db, Mismatch[]>();

export const refusalMessage = (mismatches: readonly Pick<Mismatch, 'record'>[]) => `${HISTORY_CHANGED}: ${contentMessage(mismatches)}.`;

// The registry stamps a retirement and its movement one after the other: the same second at most.
const retirementDiffers = sql.raw(`m.amount != CAST(round(NEW.amount * 1000000) AS INTEGER)
    OR abs(m.created_at - CAST(round((julianday(NEW.created_at) - 2440587.5) * 86400000) AS INTEGER)) > 1000`);
const ledgerDiffers = sql.raw(`m.credit_id != NEW.credit_id OR m.kind != NEW.kind OR m.from_account IS NOT NEW.from_account_id
    OR m.to_account IS NOT NEW.to_account_id OR m.amount != NEW.amount_grams OR m.reference IS NOT NEW.reference
    OR m.created_at != CAST(round((julianday(NEW.at) - 2440587.5) * 86400000) AS INTEGER)`);

const retirementLeaf = sql.raw(`m.reference = NEW.id AND m.kind = 'retire'`);
const ledgerLeaf = sql.raw(`m.id = NEW.id`);

const retirementRefusal = sql.raw(`json_object('record', 'retirement ' || NEW.id,
  'synced', json_object('amount', NEW.amount, 'createdAt', NEW.created_at),
  'logged', (SELECT json_object('movement', m.id, 'leaf', m.leaf, 'amountGrams', m.amount,
    'createdAt', strftime('%Y-%m-%dT%H:%M:%fZ', m.created_at / 1000.0, 'unixepoch'))
    FROM hv_movements m WHERE m.reference = NEW.id AND m.kind = 'retire' LIMIT 1))`);
const ledgerRefusal = sql.raw(`json_object('record', 'movement ' || NEW.id,
  'synced', json_object('credit_id', NEW.credit_id, 'kind', NEW.kind, 'from_account_id', NEW.from_account_id,
    'to_account_id', NEW.to_account_id, 'amount_grams', NEW.amount_grams, 'at', NEW.at, 'reference', NEW.reference),
  'logged', (SELECT json_object('leaf', m.leaf, 'credit_id', m.credit_id, 'kind', m.kind, 'from_account', m.from_account,
    'to_account', m.to_account, 'amount', m.amount, 'created_at', m.created_at, 'reference', m.reference)
    FROM hv_movements m WHERE m.id = NEW.id))`);

const GUARDED = [
  { table: 'retirements', leaf: retirementLeaf, differs: retirementDiffers, refusal: retirementRefusal },
  { table: 'bo_ledger', leaf: ledgerLeaf, differs: ledgerDiffers, refusal: ledgerRefusal },
] as const;

/** Installs the guard on this connection (again is a no-op); its refusals wait for settleRefusals. */
export function guardVerifiedRecords(db: Db): void {
  if (refusals.has(db)) return;
  const seen: Mismatch[] = [];
  refusals.set(db, seen);
  db.raw.function('hv_refused', { deterministic: false, varargs: false }, (json: unknown) => {
    const mismatch = JSON.parse(String(json)) as Mismatch;
    seen.push(mismatch);
    return refusalMessage([mismatch]);
  });
  createGuardTriggers(db);
}

const EVENTS = ['INSERT', 'UPDATE'] as const;
const triggerName = (table: string, event: (typeof EVENTS)[number]) => sql.raw(`hv_guard_${table}_${event.toLowerCase()}`);

function createGuardTriggers(db: Db): void {
  for (const { table, leaf, differs, refusal } of GUARDED) {
    for (const event of EVENTS) {
      db.run(sql`CREATE TEMP TRIGGER IF NOT EXISTS ${triggerName(table, event)}
        BEFORE ${sql.raw(event)} ON ${sql.raw(table)}
        WHEN EXISTS (SELECT 1 FROM hv_movements m WHERE ${leaf} AND (${differs}))
        BEGIN SELECT RAISE(ABORT, hv_refused(${refusal})); END`);
    }
  }
}

/**
 * Lifts this connection's guard for a first sync's load while the cache holds no verified movement
 * (so no write can differ from one), inside the load's transaction; answers the function that puts
 * it back (once; nothing when nothing was lifted), to be called before the movements are kept.
 * Moved in ahead of their keep (store.ts moveVerifiedAhead), they are not kept until it either.
 *
 * A trigger costs each row it watches even when it never fires: 100,000 retirements took
 * 0.83-0.91 s of CPU to insert with it, 0.46-0.51 s without (bench/README.md, sync), on the thread
 * a first sync waits for. The triggers are temporary and their removal part of the transaction: a
 * load that rolls back has them back. The load's rows are matched when the movements are kept
 * (keep-verified.ts).
 */
export function liftGuardWhileNothingVerified(db: Db): () => void {
  if (!refusals.has(db) || !db.raw.inTransaction) return () => {};
  if (holdsVerifiedMovements(db)) return () => {};
  for (const { table } of GUARDED) for (const event of EVENTS) db.run(sql`DROP TRIGGER IF EXISTS temp.${triggerName(table, event)}`);
  let lifted = true;
  return () => {
    if (lifted) createGuardTriggers(db);
    lifted = false;
  };
}

/**
 * Keeps the refusals this connection saw as one piece of evidence and marks the history failed
 * (later syncs are refused); the message, or null when there were none. Called once the refused
 * write's transaction is over (it rolled back): by the sync's check at the end of a run, and by
 * the desk service after its own writes (the back office's sync, a finalized retirement).
 */
export function settleRefusals(db: Db, now: number): string | null {
  const seen = refusals.get(db);
  // a runtime closed meanwhile (another connection activated): its cache keeps nothing more
  if (!seen || seen.length === 0 || !db.raw.open) return null;
  const mismatches = seen.splice(0);
  const message = refusalMessage(mismatches);
  db.transaction(() => {
    const kept = readState(db)?.checkpoint;
    keepEvidence(db, now, {
      kind: 'content',
      message,
      ...(kept ? { kept } : {}),
      proof: JSON.stringify({ mismatches: mismatches.slice(0, 50) }),
    });
    saveOutcome(db, { outcome: 'failed', message, at: now });
  });
  return message;
}
