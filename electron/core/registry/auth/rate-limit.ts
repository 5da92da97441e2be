// Rate limiting: a token bucket per key (an app, over all its tokens and JWTs; a client address, for
// failed authentication), refilled continuously. Off unless configured. One SQLite registry is one
// process, so its buckets are in memory (RateLimiter); the server processes of one PostgreSQL
// database share theirs in the database (DatabaseRateLimiter), so the budget is the registry's, not
// each process's.
import type { RegistryContext } from '../context';
import { sql, type Kysely } from 'kysely';
import { RegistryError } from '../errors';
import type { RegistryTables } from '../schema';

export interface RateLimitOptions {
  /** Requests allowed per window, per key (per app; per client address for failed authentication). */
  requests: number;
  /** Window length in milliseconds. */
  windowMs: number;
}

/** What the authenticator spends from: one bucket per key. */
export interface RateBudget {
  /** Takes one request for `key` or throws 429 with Retry-After (seconds). */
  take(key: string, message?: string): void;
  /** Throws 429 with Retry-After when `key` has nothing left, without taking anything. */
  check(key: string, message?: string): void;
  /** Gives back one request taken ahead (a reservation that was not needed), up to the full budget. */
  refund(key: string): void;
}

const TOO_MANY = 'Too many requests; retry later';

function refused(options: RateLimitOptions, tokens: number, message: string): RegistryError {
  const ratePerMs = options.requests / options.windowMs;
  const retryAfterS = Math.max(1, Math.ceil((1 - tokens) / ratePerMs / 1000));
  return new RegistryError('rate_limited', message, { 'Retry-After': String(retryAfterS) });
}

function checkOptions(options: RateLimitOptions): void {
  if (!(options.requests > 0) || !(options.windowMs > 0)) throw new Error('rate limit needs requests > 0 and windowMs > 0');
}

export class RateLimiter implements RateBudget {
  private readonly buckets = new Map<string, { tokens: number; updated: number }>();
  private lastSweep = 0;

  constructor(
    private readonly options: RateLimitOptions,
    private readonly now: () => number,
  ) {
    checkOptions(options);
  }

  take(key: string, message = TOO_MANY): void {
    this.check(key, message);
    this.bucket(key).tokens -= 1;
  }

  check(key: string, message = TOO_MANY): void {
    const bucket = this.bucket(key);
    if (bucket.tokens < 1) throw refused(this.options, bucket.tokens, message);
  }

  refund(key: string): void {
    const bucket = this.bucket(key);
    bucket.tokens = Math.min(this.options.requests, bucket.tokens + 1);
  }

  /**
   * Counts one request for `key` that may go below zero: a refusal already answered, which the next
   * check() of this process must see. In memory only: the per-operator budget of refused attempts
   * is each process's (the authentication budget shared across processes is take()'s).
   */
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

// The database's statements, compiled once per connection (SyncDatabase.prepared). PostgreSQL's
// upsert with its own functions (LEAST, GREATEST, DOUBLE PRECISION), so sql templates.
// (a type, not an interface: prepared values need an index signature)
type BucketValues = { key: string; capacity: number; rate: number; now: number };
/** The bucket `b` refilled up to `now` (never backwards: a process whose clock lags refills nothing). */
const refilled = (v: BucketValues) => sql<number>`LEAST(CAST(${v.capacity} AS DOUBLE PRECISION),
  b.tokens + GREATEST(CAST(${v.now} AS BIGINT) - b.updated_at, 0) * CAST(${v.rate} AS DOUBLE PRECISION))`;
/** Refills and takes one token if a whole one is left; answers no row when none is. */
const takeToken = (v: BucketValues) => sql<{ tokens: number }>`INSERT INTO rate_limit_buckets AS b (key, tokens, updated_at)
  VALUES (${v.key}, CAST(${v.capacity} AS DOUBLE PRECISION) - 1, CAST(${v.now} AS BIGINT))
  ON CONFLICT (key) DO UPDATE SET tokens = ${refilled(v)} - 1, updated_at = GREATEST(b.updated_at, CAST(${v.now} AS BIGINT))
  WHERE ${refilled(v)} >= 1 RETURNING tokens`;
const tokensLeft = (v: BucketValues) =>
  sql<{ tokens: number }>`SELECT ${refilled(v)} AS tokens FROM rate_limit_buckets b WHERE key = ${v.key}`;
const sweepBuckets = (v: { before: number }, q: Kysely<RegistryTables>) =>
  q.deleteFrom('rate_limit_buckets').where('updated_at', '<=', v.before);

/**
 * The buckets in the database (table rate_limit_buckets), shared by every process serving it. Each
 * take is one statement run on its own, outside any transaction (PostgreSQL's READ COMMITTED): an
 * upsert that refills and takes only if a whole token is left, so concurrent takes from several
 * processes queue on the bucket's row lock and each sees the one before it (no retry, no lost
 * update). About one round trip per authenticated request; a refusal reads the bucket once more for
 * its Retry-After. Every process must be given the same limit.
 */
export class DatabaseRateLimiter implements RateBudget {
  private lastSweep = 0;

  constructor(
    private readonly ctx: RegistryContext,
    private readonly options: RateLimitOptions,
  ) {
    checkOptions(options);
  }

  private values(key: string): BucketValues {
    return { key, capacity: this.options.requests, rate: this.options.requests / this.options.windowMs, now: this.ctx.clock.now() };
  }

  take(key: string, message = TOO_MANY): void {
    this.sweep();
    if (this.ctx.db.prepared(takeToken).first(this.values(key)) === undefined) throw refused(this.options, this.tokens(key), message);
  }

  check(key: string, message = TOO_MANY): void {
    const tokens = this.tokens(key);
    if (tokens < 1) throw refused(this.options, tokens, message);
  }

  refund(key: string): void {
    const { db } = this.ctx;
    db.run(
      db.q
        .updateTable('rate_limit_buckets')
        .set({ tokens: sql<number>`LEAST(CAST(${this.options.requests} AS DOUBLE PRECISION), tokens + 1)` })
        .where('key', '=', key),
    );
  }

  private tokens(key: string): number {
    const row = this.ctx.db.prepared(tokensLeft).first(this.values(key));
    return row?.tokens ?? this.options.requests;
  }

  /** Once a window, forgets buckets left alone for a whole window (they are full again). */
  private sweep(): void {
    const now = this.ctx.clock.now();
    if (now - this.lastSweep < this.options.windowMs) return;
    this.lastSweep = now;
    this.ctx.db.prepared(sweepBuckets).run({ before: now - this.options.windowMs });
  }
}
