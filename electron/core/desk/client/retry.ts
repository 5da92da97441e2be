// When and how long to wait before trying a request again. Only failures that are safe to repeat
// are retried: a GET after any transient failure; a POST or DELETE only when it never reached the
// registry (connection refused) or the registry explicitly refused it unprocessed (429).
import { RegistryClientError } from './errors';
import { NetworkError } from './http';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited out: the error goes to the caller. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 250, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };

export function isRetryable(error: unknown, method: string): boolean {
  if (!(error instanceof RegistryClientError)) return false;
  const idempotent = method === 'GET';
  switch (error.kind) {
    case 'network':
      return idempotent || (error instanceof NetworkError && error.neverSent);
    case 'timeout':
      return idempotent;
    case 'http':
      if (error.status === 429) return true;
      return idempotent && error.status !== undefined && error.status >= 500;
    default:
      return false;
  }
}

/** Exponential backoff with jitter, or the registry's Retry-After; undefined means do not wait it out. */
export function retryDelayMs(
  error: RegistryClientError,
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number | undefined {
  // A 429's or a 503's Retry-After (a registry out of breath says when to come back).
  if ((error.status === 429 || error.status === 503) && error.retryAfterS !== undefined) {
    const wait = error.retryAfterS * 1000;
    if (wait > policy.maxRetryAfterMs) return undefined;
    // A little jitter after the asked time, so parallel requests do not come back in one burst.
    return wait + Math.floor(random() * policy.baseDelayMs);
  }
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(exponential / 2 + random() * (exponential / 2));
}
