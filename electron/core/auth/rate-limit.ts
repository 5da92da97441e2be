// Per-token rate limiting: a token bucket per key, refilled continuously. Off unless configured.
import { RegistryError } from '../registry/errors';

export interface RateLimitOptions {
  /** Requests allowed per window, per token. */
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
  take(key: string): void {
    const now = this.now();
    const ratePerMs = this.options.requests / this.options.windowMs;
    const bucket = this.buckets.get(key) ?? { tokens: this.options.requests, updated: now };
    bucket.tokens = Math.min(this.options.requests, bucket.tokens + (now - bucket.updated) * ratePerMs);
    bucket.updated = now;
    this.buckets.set(key, bucket);
    this.sweep(now);
    if (bucket.tokens < 1) {
      const retryAfterS = Math.max(1, Math.ceil((1 - bucket.tokens) / ratePerMs / 1000));
      throw new RegistryError('rate_limited', 'Too many requests for this token; retry later', { 'Retry-After': String(retryAfterS) });
    }
    bucket.tokens -= 1;
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
