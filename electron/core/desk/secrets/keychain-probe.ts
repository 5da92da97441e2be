// Answers "can this machine keep secrets in an OS keychain?" before the desk picks a store. It does
// a full round trip (store, read back, delete a throwaway value): on Linux a reachable Secret
// Service with no default keyring answers reads with null but fails writes, so a read alone lies.
import { randomBytes } from 'node:crypto';
import { SecretStoreError } from './errors';
import { explainKeychainFailure } from './keychain-messages';
import { loadKeytar, type KeytarApi } from './keytar-loader';
import { withTimeout } from './timeout';

export type KeychainProbeResult = { available: true } | { available: false; reason: string };

export interface ProbeKeychainOptions {
  keytar?: KeytarApi;
  /** How long the whole round trip may take; a hung D-Bus call otherwise never returns. */
  timeoutMs?: number;
}

export const PROBE_SERVICE = 'registry-desk:keychain-probe';
export const DEFAULT_PROBE_TIMEOUT_MS = 5_000;

export async function probeKeychain(options: ProbeKeychainOptions = {}): Promise<KeychainProbeResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new RangeError('probeKeychain: timeoutMs must be a positive number');
  try {
    return await withTimeout(roundTrip(options.keytar), timeoutMs);
  } catch (error) {
    // After a timeout the native call is still pending in a libuv worker thread and Node waits for
    // it at exit: a process that saw a timeout may need a hard exit to quit.
    if (error instanceof SecretStoreError) return { available: false, reason: error.message };
    return { available: false, reason: explainKeychainFailure(error) };
  }
}

async function roundTrip(injected: KeytarApi | undefined): Promise<KeychainProbeResult> {
  const keytar = injected ?? (await loadKeytar());
  const account = `probe-${process.pid}-${randomBytes(6).toString('hex')}`;
  const marker = randomBytes(12).toString('hex');
  await keytar.setPassword(PROBE_SERVICE, account, marker);
  try {
    const readBack = await keytar.getPassword(PROBE_SERVICE, account);
    if (readBack !== marker) {
      return { available: false, reason: 'The OS keychain accepted a value but did not return it when read back.' };
    }
  } finally {
    await keytar.deletePassword(PROBE_SERVICE, account);
  }
  return { available: true };
}
