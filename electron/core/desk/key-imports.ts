// App keys the user picked, between the pick and the connections.* call that stores them. The key
// never enters the renderer: in Electron the main process reads the file the native open dialog
// chose; in the browser desk the page streams the chosen file to the web host without reading it.
// Either way the host puts the PEM here and the page gets only a handle, which expires after
// KEY_IMPORT_TTL_MS and is forgotten once the key is stored.
import { randomBytes } from 'node:crypto';
import type { PickedKey } from '../../../shared/desk/api';
import type { Clock } from '../platform/clock';
import { checkPrivateKeyPem } from './connection-keys';
import { DeskFailure } from './errors';

/** An RSA-4096 PKCS#8 PEM is about 3.3 KB; anything much larger is not a key file. */
export const MAX_KEY_FILE_BYTES = 20_000;
export const KEY_IMPORT_TTL_MS = 10 * 60_000;
const MAX_KEY_IMPORTS = 8;

export interface KeyImports {
  /** Checks and keeps a picked PEM (never echoed in errors); returns its handle. */
  put(pem: string, fileName: string): PickedKey;
  /** The PEM behind a handle; a clear error when it is unknown or expired. */
  get(handle: string): string;
  /** Forgets a PEM once it is stored (or no longer wanted). */
  release(handle: string): void;
}

export function createKeyImports(clock: Clock): KeyImports {
  const keys = new Map<string, { pem: string; expiresAt: number }>();
  const prune = () => {
    const now = clock.now();
    for (const [handle, key] of keys) if (key.expiresAt <= now) keys.delete(handle);
    while (keys.size > MAX_KEY_IMPORTS) keys.delete(keys.keys().next().value!);
  };
  return {
    put(pem, fileName) {
      const name =
        (fileName.replaceAll('\\', '/').split('/').pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 200) || 'key file';
      if (Buffer.byteLength(pem, 'utf8') > MAX_KEY_FILE_BYTES)
        throw new DeskFailure('invalid_input', `${name} is too large to be a key file (at most ${MAX_KEY_FILE_BYTES / 1000} KB)`);
      checkPrivateKeyPem(pem);
      const handle = randomBytes(18).toString('base64url');
      keys.set(handle, { pem, expiresAt: clock.now() + KEY_IMPORT_TTL_MS });
      prune();
      return { handle, fileName: name };
    },
    get(handle) {
      prune();
      const key = keys.get(handle);
      if (!key) throw new DeskFailure('invalid_input', 'The chosen key file is no longer available: choose it again');
      return key.pem;
    },
    release(handle) {
      keys.delete(handle);
    },
  };
}
