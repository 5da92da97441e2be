// The verification state as the desk API shows it (shared/desk/api.ts historyVerification), read
// from the connection's cache: the sync status and the connection in Settings both carry it.
import type { HistoryEvidence, HistoryVerification } from '@shared/desk/api';
import type { SqliteDatabase } from '@platform/db/database';
import type { CacheTables } from '../cache/schema';
import { readPin } from './pin';
import { evidenceRows, readState } from './store';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function historyStatus(db: SqliteDatabase<CacheTables>): HistoryVerification {
  const s = readState(db);
  const evidence = db.first(db.q.selectFrom('hv_evidence').select((eb) => eb.fn.countAll<number>().as('n')))?.n ?? 0;
  if (!s) return { state: 'not_checked', entries: null, upTo: null, checkedAt: null, message: null, pending: 0, evidence };
  return {
    state: s.outcome,
    entries: s.size,
    upTo: iso(s.signed_at ?? s.verified_at),
    checkedAt: iso(s.checked_at),
    message: s.message,
    pending: s.pending,
    evidence,
  };
}

/** Every failed check with what proves it, oldest first (for a person to keep or send on). */
export function historyEvidence(db: SqliteDatabase<CacheTables>): HistoryEvidence[] {
  return evidenceRows(db).map((e) => ({
    foundAt: new Date(e.found_at).toISOString(),
    kind: e.kind,
    message: e.message,
    keptCheckpoint: e.kept_checkpoint,
    latestCheckpoint: e.latest_checkpoint,
    proof: e.proof,
  }));
}

/** The key this cache checks the history against (verified under, else reviewed); undefined: none yet, null: reviewed as having no log. */
export function pinnedKey(db: SqliteDatabase<CacheTables>): string | null | undefined {
  const state = readState(db)?.verifier_key;
  if (state) return state;
  const pin = readPin(db);
  return pin ? pin.verifier_key : undefined;
}
