// Stored answers of idempotent writes outlive their 24-hour window only until this job deletes them:
// an expired key is overwritten when it is used again, but one never used again would otherwise
// stay for ever (the table would grow with every keyed write).
import type { BackgroundService } from './background';
import { repeatSafely } from './background';
import { purgeIdempotencyKeys } from './idempotency';

/** How often expired keys are deleted: an expired key stays at most this long past its window. */
export const IDEMPOTENCY_PURGE_INTERVAL_MS = 10 * 60 * 1000;

export const idempotencyHousekeeping: BackgroundService = {
  name: 'idempotency-housekeeping',
  start: (ctx, options) =>
    repeatSafely('idempotency key housekeeping', IDEMPOTENCY_PURGE_INTERVAL_MS, () => purgeIdempotencyKeys(ctx), {
      log: options?.log,
      runNow: true,
    }),
};
