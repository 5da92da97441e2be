// Rate limiting: a token bucket per key (an app, over all its tokens and JWTs; a client address, for
// failed authentication), refilled continuously. Off unless configured.
import { RegistryError } from '../registry/errors';

export interface RateLimitOptions {
  /** Requests allowed per window, per key (per app; per client address for failed authentication). */
  requests: number;
  /** Window length in milliseconds. */
  windowMs: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; updated: number }>();
  private lastSweep = 0;

  constructor(
    private readonly options: RateLimitOptions,
    private readonly now: () => number,
  ) {
    if (!(options.requests > 0) || !(options.windowMs > 0)) throw new Error('rate limit needs requests > 0 and windowMs > 0');
  }

  /** Takes one request for `key` or throws 429 with Retry-After (seconds). */
  take(key: string, message = 'Too many requests; retry later'): void {
    this.check(key, message);
    this.bucket(key).tokens -= 1;
  }

  /** Throws 429 with Retry-After when `key` has nothing left, without taking anything. */
  check(key: string, message = 'Too many requests; retry later'): void {
    const bucket = this.bucket(key);
    if (bucket.tokens < 1) {
      const ratePerMs = this.options.requests / this.options.windowMs;
      const retryAfterS = Math.max(1, Math.ceil((1 - bucket.tokens) / ratePerMs / 1000));
      throw new RegistryError('rate_limited', message, { 'Retry-After': String(retryAfterS) });
    }
  }

  /** Counts one request for `key` that may go below zero (a failure already answered). */
  spend(key: string): void {
    this.bucket(key).tokens -= 1;
  }

  /** The key's bucket, refilled up to now. */
  private bucket(key: string): { tokens: number; updated: number } {
    const now = this.now();
    const ratePerMs = this.options.requests / this.options.windowMs;
    const bucket = this.buckets.get(key) ?? { tokens: this.options.requests, updated: now };
    bucket.tokens = Math.min(this.options.requests, bucket.tokens + (now - bucket.updated) * ratePerMs);
    bucket.updated = now;
    this.sweep(now);
    this.buckets.set(key, bucket);
    return bucket;
  }

  /** Forgets buckets that have refilled completely, so memory stays bounded by active tokens. */
  private sweep(now: number): void {
    if (now - this.lastSweep < this.options.windowMs) return;
    this.lastSweep = now;
    for (const [key, bucket] of this.buckets) {
      if (now - bucket.updated >= this.options.windowMs) this.buckets.delete(key);
    }
  }
}
