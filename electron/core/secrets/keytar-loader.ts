// Loads keytar (a native module) only when a keychain is first used, so a missing or broken build
// becomes a KeychainUnavailableError the desk can show, not a crash when the main process starts.
import type * as KeytarModule from 'keytar';
import { KeychainUnavailableError } from './errors';

/** The part of keytar 7.9 the stores use (getPassword resolves null for an unknown account). */
export type KeytarApi = Pick<typeof KeytarModule, 'getPassword' | 'setPassword' | 'deletePassword'>;

let loaded: Promise<KeytarApi> | undefined;

export function loadKeytar(): Promise<KeytarApi> {
  // Only a success is remembered: after a failed load the next call tries again.
  loaded ??= importKeytar().catch((error: unknown) => {
    loaded = undefined;
    throw error;
  });
  return loaded;
}

async function importKeytar(): Promise<KeytarApi> {
  let mod: unknown;
  try {
    mod = await import('keytar');
  } catch (error) {
    const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new KeychainUnavailableError(`The OS keychain module (keytar) could not be loaded: ${why}`);
  }
  // keytar is CommonJS: under ESM its functions sit on `default`.
  const api = ((mod as { default?: unknown }).default ?? mod) as Partial<KeytarApi>;
  if (typeof api.getPassword !== 'function' || typeof api.setPassword !== 'function' || typeof api.deletePassword !== 'function') {
    throw new KeychainUnavailableError('The OS keychain module (keytar) loaded but does not provide getPassword/setPassword/deletePassword.');
  }
  return api as KeytarApi;
}
