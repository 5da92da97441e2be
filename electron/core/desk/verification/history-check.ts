// The sync's hook (sync/engine.ts calls it): `begin` before the run writes anything, or `beside`
// while the run downloads (its `keep` before the run keeps anything), and `end` after it.
// The check is one connection's: its cache holds the pinned key and the verified state. While the
// run writes, the cache refuses records that differ from their verified leaves (guard.ts).
import type { Clock } from '@platform/clock';
import type { FetchLike } from '../client/http';
import type { DeskCache } from '../cache';
import { HISTORY_CHANGED, HistoryChanged, keepFailure, replayHistory, type CheckOutcome } from './check';
import { guardVerifiedRecords, settleRefusals } from './guard';
import { matchSynced } from './match';
import { keepEvidence, moveVerifiedAhead, readState, saveOutcome } from './store';
import { transparencyGet } from './transport';
import type { ReplayLeaves } from './leaf-replay';
import type { Get } from '@shared/transparency/verifier';

export interface HistoryCheck {
  /** Verifies the latest checkpoint; throws HistoryChanged (the run then writes nothing) or a client error when unreachable. */
  begin(): Promise<void>;
  /**
   * Starts the check while the run downloads: the log is downloaded and hashed beside it, writing
   * only a temporary table; nothing is kept until the run calls `keep`.
   */
  beside(): BesideCheck;
  /** Keeps a failure `keep` threw (its evidence), once the run's own writes were rolled back. */
  keepFailure(failure: HistoryChanged): void;
  /**
   * Keeps the records the cache refused during the run as evidence (guard.ts), then matches the
   * synced records with the verified leaves; the failure's message, or null.
   */
  end(): string | null;
}

/** A check started beside a run (HistoryCheck.beside). */
export interface BesideCheck {
  /**
   * Waits for the replay and keeps its outcome (the run calls it before it keeps any row; again, the
   * same answer). Throws what the replay threw; a HistoryChanged's evidence is not kept yet.
   */
  keep(): Promise<void>;
  /** Whether `error` is the one `keep` threw (the check failed, not the run). */
  threw(error: unknown): boolean;
  /**
   * Work that may run before `keep`, inside a first sync's load (its one transaction), in the run's
   * idle turns, a piece at a time: once the replay's root is verified, its movements moved to where
   * the keep would put them (store.ts moveVerifiedAhead). Null when there is none (now).
   */
  aheadOfKeep(): (() => void) | null;
}

export function createHistoryCheck(options: {
  baseUrl: string;
  cache: Pick<DeskCache, 'db'>;
  clock: Clock;
  fetch?: FetchLike;
  /** Where the leaves are replayed, given the check's own GET (default: on this thread; sync/worker/replay-thread.ts). */
  leaves?: (get: Get) => ReplayLeaves;
}): HistoryCheck {
  const { db } = options.cache;
  const now = () => options.clock.now();
  const get = transparencyGet(options.baseUrl, options.fetch);
  const leaves = options.leaves?.(get);
  // the run's writes go through this connection: a record that differs from its verified leaf is refused
  guardVerifiedRecords(db);
  let verified = false;
  // Whether this run's check verified the log from its first leaf: it then matched every record in
  // the cache (keep-verified.ts), and `end` need not match the retirements again.
  let matchedAll = false;
  const keptOutcome = (outcome: CheckOutcome) => {
    verified = outcome.outcome === 'verified';
    matchedAll = outcome.outcome === 'verified' && outcome.newEntries === outcome.size;
  };
  // One replay at a time: each uses the connection's temporary table (store.ts), so one started
  // while an earlier one (beside a run that failed, never kept) still downloads waits for it.
  let lastReplay: Promise<unknown> = Promise.resolve();
  const replay = () => {
    const next = lastReplay.then(() => replayHistory({ get, db, now, ...(leaves ? { leaves } : {}) }));
    lastReplay = next.catch(() => {});
    return next;
  };
  /** Retirements pending after this connection's last match (null: none yet, so the next reads them all). */
  let retirementsPending: number | null = null;
  return {
    async begin() {
      verified = false;
      matchedAll = false;
      settleRefusals(db, now());
      try {
        keptOutcome((await replay())());
      } catch (error) {
        if (error instanceof HistoryChanged) keepFailure(db, now, error);
        throw error;
      }
    },
    beside() {
      verified = false;
      matchedAll = false;
      settleRefusals(db, now());
      const replaying = replay();
      // Whether the replay's root is verified (its movements may then move ahead of the keep). The
      // rejection handler also makes a failure before keep awaits it (or a replay dropped unkept)
      // not count as unhandled.
      let rootVerified = false;
      void replaying.then(
        (keep) => (rootVerified = keep.rootVerified === true),
        () => {},
      );
      let kept: Promise<void> | null = null;
      let failure: { error: unknown } | null = null;
      return {
        keep: () =>
          (kept ??= replaying
            .then((keep) => {
              keptOutcome(keep());
            })
            .catch((error: unknown) => {
              failure = { error };
              throw error;
            })),
        threw: (error) => failure !== null && failure.error === error,
        aheadOfKeep: () => (rootVerified && kept === null ? moveVerifiedAhead(db) : null),
      };
    },
    keepFailure(failure) {
      keepFailure(db, now, failure);
    },
    end() {
      const refused = settleRefusals(db, now());
      if (refused) return refused;
      const state = readState(db);
      if (!verified || state?.outcome !== 'verified') return null;
      const { mismatches, pending, ...counted } = matchSynced(db, retirementsPending, matchedAll);
      retirementsPending = counted.retirementsPending;
      if (mismatches.length === 0) {
        // begin() wrote this run's check time; a re-sync that changed nothing writes nothing more
        if (state.pending !== pending) saveOutcome(db, { outcome: 'verified', message: null, at: now(), pending });
        return null;
      }
      const message = `${HISTORY_CHANGED}: ${mismatches.length === 1 ? 'a record it serves differs' : `${mismatches.length} records it serves differ`} from the entry its log holds (${mismatches[0]!.record}).`;
      db.transaction(() => {
        keepEvidence(db, now(), {
          kind: 'content',
          message,
          ...(readState(db)?.checkpoint ? { kept: readState(db)!.checkpoint! } : {}),
          proof: JSON.stringify({ mismatches }),
        });
        saveOutcome(db, { outcome: 'failed', message, at: now(), pending });
      });
      return message;
    },
  };
}
