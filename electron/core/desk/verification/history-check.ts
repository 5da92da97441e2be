// The sync's hook (sync/engine.ts calls it): `begin` before the run writes anything, `end` after it.
// The check is one connection's: its cache holds the pinned key and the verified state.
import type { Clock } from '@platform/clock';
import type { FetchLike } from '../client/http';
import type { DeskCache } from '../cache';
import { checkHistory, HISTORY_CHANGED } from './check';
import { matchSynced } from './match';
import { keepEvidence, readState, saveOutcome } from './store';
import { transparencyGet } from './transport';

export interface HistoryCheck {
  /** Verifies the latest checkpoint; throws HistoryChanged (the run then writes nothing) or a client error when unreachable. */
  begin(): Promise<void>;
  /** Matches the synced records with the verified leaves; the failure's message, or null. */
  end(): string | null;
}

export function createHistoryCheck(options: {
  baseUrl: string;
  cache: Pick<DeskCache, 'db'>;
  clock: Clock;
  fetch?: FetchLike;
}): HistoryCheck {
  const { db } = options.cache;
  const now = () => options.clock.now();
  const get = transparencyGet(options.baseUrl, options.fetch);
  let verified = false;
  /** Retirements pending after this connection's last match (null: none yet, so the next reads them all). */
  let retirementsPending: number | null = null;
  return {
    async begin() {
      verified = false;
      verified = (await checkHistory({ get, db, now })).outcome === 'verified';
    },
    end() {
      const state = readState(db);
      if (!verified || state?.outcome !== 'verified') return null;
      const { mismatches, pending, ...counted } = matchSynced(db, retirementsPending);
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
