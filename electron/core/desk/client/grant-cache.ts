// The desk's token grants kept until shortly before they expire, one per scope: the main thread's
// token manager (tokens.ts) keeps the grants it obtains from the registry, and the sync worker
// (sync/worker/entry.ts) the grants it asks the main thread for, by the same rules. Callers of one
// scope share one request while it is out, and a refresh ahead of expiry that fails leaves the
// grant it was to replace in use until that really expires.
import type { Clock } from '@platform/clock';

export type TokenScope = { kind: 'app' } | { kind: 'installation'; installationId: string } | { kind: 'operator' };

export interface TokenGrant {
  token: string;
  /** Desk-clock time after which the token is no longer used. */
  expiresAtLocal: number;
  /** What the registry says the token may do (e.g. `{ examiner: 'READ' }` on an app token). */
  permissions: Record<string, string>;
}

export const DEFAULT_REFRESH_AHEAD_MS = 5 * 60 * 1000;

export const scopeKey = (scope: TokenScope): string =>
  scope.kind === 'installation' ? `installation:${scope.installationId}` : scope.kind;

export interface GrantCache {
  /** The kept grant of the scope while it has more than the refresh margin left, else a new one. */
  grant(scope: TokenScope): Promise<TokenGrant>;
  /** Forgets the scope's grant; with `token`, only when that is still the one kept. */
  invalidate(scope: TokenScope, token?: string): void;
  /** Forgets every grant, and keeps none of the requests already out when they come back. */
  clear(): void;
}

export function createGrantCache(options: {
  /** Obtains a new grant (from the registry, or from the thread that asks it). */
  obtain: (scope: TokenScope) => Promise<TokenGrant>;
  clock: Clock;
  /** Grants with less than this left are replaced before use (default 5 minutes). */
  refreshAheadMs?: number;
}): GrantCache {
  const refreshAheadMs = options.refreshAheadMs ?? DEFAULT_REFRESH_AHEAD_MS;
  const kept = new Map<string, TokenGrant>();
  const inFlight = new Map<string, Promise<TokenGrant>>();
  // Bumped by clear() so a request started before it cannot put its grant back.
  const generation = new Map<string, number>();

  const fresh = (grant: TokenGrant | undefined): grant is TokenGrant =>
    grant !== undefined && grant.expiresAtLocal - options.clock.now() > refreshAheadMs;

  return {
    grant(scope) {
      const key = scopeKey(scope);
      const cached = kept.get(key);
      if (fresh(cached)) return Promise.resolve(cached);
      const pending = inFlight.get(key);
      if (pending) return pending;
      const startedGeneration = generation.get(key) ?? 0;
      const request = options
        .obtain(scope)
        .then((obtained) => {
          if ((generation.get(key) ?? 0) === startedGeneration) kept.set(key, obtained);
          return obtained;
        })
        .catch((error: unknown) => {
          // A refresh ahead of expiry that fails leaves the old token usable until it really expires.
          const stillValid = kept.get(key);
          if (stillValid && stillValid.expiresAtLocal > options.clock.now()) return stillValid;
          throw error;
        })
        .finally(() => {
          if (inFlight.get(key) === request) inFlight.delete(key);
        });
      inFlight.set(key, request);
      return request;
    },
    invalidate(scope, token) {
      const key = scopeKey(scope);
      const cached = kept.get(key);
      if (token !== undefined && cached !== undefined && cached.token !== token) return;
      // A request already in flight is newer than the refused token: let it land.
      kept.delete(key);
    },
    clear() {
      for (const key of new Set([...kept.keys(), ...inFlight.keys()])) generation.set(key, (generation.get(key) ?? 0) + 1);
      kept.clear();
      inFlight.clear();
    },
  };
}
