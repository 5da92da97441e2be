// "Verify this registry from scratch" (docs/desk.md): after a failed check, a person who accepts the
// registry's history as it is now starts the connection's cache over. The evidence of every failed
// check is carried into the new cache, with a line saying who started over, when, from which
// verified checkpoint and under which key; the verified state and every record synced from the
// registry are dropped (they were verified against the history the person gave up); the key the
// person reviewed is pinned. The next sync is a first sync: it verifies the whole log again.
import { existsSync, rmSync } from 'node:fs';
import type { Clock } from '@platform/clock';
import { openDeskCache } from '../cache';
import { readPin, savePin } from './pin';
import { evidenceRows, keepEvidence, readState } from './store';

export interface StartedOver {
  /** Failed checks carried into the new cache (the line about starting over not counted). */
  evidence: number;
}

/** Starts the cache file of a connection over (its runtime must be closed: nothing may hold the file). */
export function startCacheOver(file: string, clock: Clock, accepted: { key: string | null }): StartedOver {
  let carried: ReturnType<typeof evidenceRows> = [];
  let verified: { checkpoint: string | null; key: string | null; entries: number | null } = { checkpoint: null, key: null, entries: null };
  if (existsSync(file)) {
    const old = openDeskCache(file, { clock });
    try {
      carried = evidenceRows(old.db);
      const state = readState(old.db);
      verified = {
        checkpoint: state?.checkpoint ?? null,
        key: state?.verifier_key ?? readPin(old.db)?.verifier_key ?? null,
        entries: state?.size ?? null,
      };
    } finally {
      old.close();
    }
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  }
  const fresh = openDeskCache(file, { clock });
  try {
    fresh.db.transaction(() => {
      for (const e of carried) {
        keepEvidence(fresh.db, e.found_at, {
          kind: e.kind,
          message: e.message,
          ...(e.kept_checkpoint !== null ? { kept: e.kept_checkpoint } : {}),
          ...(e.latest_checkpoint !== null ? { latest: e.latest_checkpoint } : {}),
          ...(e.proof !== null ? { proof: e.proof } : {}),
        });
      }
      const before = verified.entries === null ? 'no verified history' : `the ${verified.entries} entries verified before`;
      const key = accepted.key === null ? 'a registry that publishes no log' : `the key ${accepted.key}`;
      keepEvidence(fresh.db, clock.now(), {
        kind: 'started_over',
        message: `Started over by the person using the desk: ${before} (key ${verified.key ?? 'none'}) given up, the registry's history as it is now accepted under ${key}.`,
        ...(verified.checkpoint !== null ? { kept: verified.checkpoint } : {}),
      });
      savePin(fresh.db, { key: accepted.key, at: clock.now(), reason: 'started_over' });
    });
  } finally {
    fresh.close();
  }
  return { evidence: carried.length };
}
