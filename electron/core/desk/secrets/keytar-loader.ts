// Loads keytar (a native module) only when a keychain is first used, so a missing or broken build
// becomes a KeychainUnavailableError the desk can show, not a crash when the main process starts.
// Under Electron it is the Electron-ABI copy when there is one (see ../db/native-modules.ts).
import { createRequire } from 'node:module';
import type * as KeytarModule from 'keytar';
import { firstLine, nativeModules, rebuildMessage, type NativeModules } from '@platform/db/native-modules';
import { KeychainUnavailableError } from './errors';
import { keytarMissingSentence } from './keychain-install.mjs';

/** The part of keytar 7.9 the stores use (getPassword resolves null for an unknown account). */
export type KeytarApi = Pick<typeof KeytarModule, 'getPassword' | 'setPassword' | 'deletePassword'>;

let loaded: Promise<KeytarApi> | undefined;

export function loadKeytar(): Promise<KeytarApi> {
  // Only a success is remembered: after a failed load the next call tries again.
  loaded ??= loadKeytarFrom(nativeModules()).catch((error: unknown) => {
    loaded = undefined;
    throw error;
  });
  return loaded;
}

/** Loads the keytar `native` names: the copy's folder, or `import('keytar')`. */
export async function loadKeytarFrom(native: NativeModules): Promise<KeytarApi> {
  const what = 'The OS keychain module (keytar)';
  let mod: unknown;
  try {
    if (native.problem) throw new Error(native.problem);
    mod = native.keytarDir ? createRequire(import.meta.url)(native.keytarDir) : await import('keytar');
  } catch (error) {
    // Not installed at all: the optional dependency was left out because it could not be built.
    if (!native.target && isModuleMissing(error)) throw new KeychainUnavailableError(keytarMissingSentence(process.platform));
    const why = firstLine(error);
    throw new KeychainUnavailableError(native.target ? rebuildMessage(what, native.target, why) : `${what} could not be loaded: ${why}`);
  }
  // keytar is CommonJS: under ESM its functions sit on `default`.
  const api = ((mod as { default?: unknown }).default ?? mod) as Partial<KeytarApi>;
  if (typeof api.getPassword !== 'function' || typeof api.setPassword !== 'function' || typeof api.deletePassword !== 'function') {
    throw new KeychainUnavailableError(`${what} loaded but does not provide getPassword/setPassword/deletePassword.`);
  }
  return api as KeytarApi;
}

function isModuleMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && /keytar/.test(firstLine(error));
}
