// How the desk's registry client behaves, shared by the main thread's client and the sync worker's.
import type { RegistryClientOptions } from './client/registry-client';

export const DESK_CLIENT_SETTINGS = {
  // A desk call waits for at most a few quick retries; a long outage is reported as offline.
  retry: { maxAttempts: 2, baseDelayMs: 150, maxDelayMs: 500 },
  timeoutMs: 15_000,
} satisfies Partial<RegistryClientOptions>;
