// App keys the user picked, between the pick and the connections.* call that stores them. The key
// never enters the renderer: in Electron the main process reads the file the native open dialog
// chose; in the browser desk the page streams the chosen file to the web host without reading it.
// Either way the host puts the PEM here and the page gets only a handle, which expires after
// KEY_IMPORT_TTL_MS and is forgotten once the key is stored. A demo registry's
// demo-credentials.json is taken too (its keys are PEM text inside JSON): it gives the app's key,
// or the key of the operator id the connection names.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { PickedKey } from '@shared/desk/api';
import type { Clock } from '../platform/clock';
import { checkPrivateKeyPem } from './connection-keys';
import { DeskFailure } from './errors';

/** An RSA-4096 PKCS#8 PEM is about 3.3 KB; anything much larger is not a key file. */
export const MAX_KEY_FILE_BYTES = 20_000;
/** The most a picked file may be: a demo-credentials.json lists the demo wallets' retirements too. */
export const MAX_KEY_UPLOAD_BYTES = 2_000_000;
export const KEY_IMPORT_TTL_MS = 10 * 60_000;
const MAX_KEY_IMPORTS = 8;

export interface KeyImports {
  /** Checks and keeps a picked PEM (never echoed in errors); returns its handle. */
  put(pem: string, fileName: string): PickedKey;
  /** The PEM behind a handle (from demo credentials: the app's, or operator `operatorId`'s); a clear error when it is unknown or expired. */
  get(handle: string, operatorId?: string): string;
  /** Forgets a PEM once it is stored (or no longer wanted). */
  release(handle: string): void;
}

export function createKeyImports(clock: Clock): KeyImports {
  const keys = new Map<string, { pem: string; operators?: DemoOperatorKeys; fileName: string; expiresAt: number }>();
  const prune = () => {
    const now = clock.now();
    for (const [handle, key] of keys) if (key.expiresAt <= now) keys.delete(handle);
    while (keys.size > MAX_KEY_IMPORTS) keys.delete(keys.keys().next().value!);
  };
  return {
    put(pem, fileName) {
      const name =
        (fileName.replaceAll('\\', '/').split('/').pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 200) || 'key file';
      const credentials = demoCredentialKeys(pem);
      const limit = credentials ? MAX_KEY_UPLOAD_BYTES : MAX_KEY_FILE_BYTES;
      if (Buffer.byteLength(pem, 'utf8') > limit)
        throw new DeskFailure('invalid_input', `${name} is too large to be a key file (at most ${limit / 1000} KB)`);
      const key = credentials ?? { pem };
      checkPrivateKeyPem(key.pem);
      for (const operator of credentials?.operators.values() ?? []) checkPrivateKeyPem(operator.pem);
      const handle = randomBytes(18).toString('base64url');
      keys.set(handle, { ...key, fileName: name, expiresAt: clock.now() + KEY_IMPORT_TTL_MS });
      prune();
      return { handle, fileName: name };
    },
    get(handle, operatorId) {
      prune();
      const key = keys.get(handle);
      if (!key) throw new DeskFailure('invalid_input', 'The chosen key file is no longer available: choose it again');
      if (operatorId === undefined || !key.operators) return key.pem;
      const operator = key.operators.get(operatorId);
      if (operator) return operator.pem;
      const known = [...key.operators].map(([id, o]) => `${o.name} (${o.role}): ${id}`);
      throw new DeskFailure(
        'invalid_input',
        `${key.fileName} holds no key for operator ${operatorId}; its operators are ${known.join('; ') || 'none'}`,
      );
    },
    release(handle) {
      keys.delete(handle);
    },
  };
}

type DemoOperatorKeys = Map<string, { pem: string; name: string; role: string }>;

const demoCredentialsKeys = z.object({
  app: z.object({ privateKeyPem: z.string() }),
  operators: z.array(z.object({ id: z.string(), name: z.string(), role: z.string(), privateKeyPem: z.string() })).default([]),
});

/** A demo registry's demo-credentials.json: the app's key and each operator's; null for anything else (a PEM). */
function demoCredentialKeys(text: string): { pem: string; operators: DemoOperatorKeys } | null {
  if (!text.trimStart().startsWith('{')) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const found = demoCredentialsKeys.safeParse(parsed);
  if (!found.success) return null;
  return {
    pem: found.data.app.privateKeyPem,
    operators: new Map(found.data.operators.map((o) => [o.id, { pem: o.privateKeyPem, name: o.name, role: o.role }])),
  };
}
