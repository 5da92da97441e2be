// The embedded registry's local administrator: at the first start the desk creates an operator
// account (role administrator) in its own embedded registry, keeps the private key in the same store
// as the embedded app key (the OS keychain, or memory where there is none), and remembers the
// account's id in the connection. Later starts reuse it while the store holds its key. When the key
// is gone (memory is empty after every restart without a keychain) or is not that account's (another
// desk data folder on this computer wrote the same keychain entry), the same account gets a new key:
// a new pair is made, its private half goes to the store and its public half replaces the account's,
// so there is one local administrator whatever the store, no private key is ever written in plain
// text, and the desk never signs with a key the registry would refuse. Creating the account and
// each new key are audit entries with the desk as their actor. Only an account that is gone or that
// a person disabled is replaced by a new one.
import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { userInfo } from 'node:os';
import { audited, type RegistryContext, createOperator, operatorKeyOf, setOperatorKey } from '../registry';
import type { KeyVault } from './key-vault';

export const LOCAL_ADMINISTRATOR_NAME = 'Local administrator (this desk)';

/** The secret-store id of a connection's operator key, beside the app key's (the connection id). */
export const operatorKeyId = (connectionId: string): string => `${connectionId}--operator`;

function deskActor(): string {
  try {
    return `desk:${userInfo().username}`;
  } catch {
    return 'desk:unknown';
  }
}

const spkiOf = (key: Parameters<typeof createPublicKey>[0]) => createPublicKey(key).export({ type: 'spki', format: 'pem' }).toString();

/** Whether the store holds a readable private key whose public half is `publicKeyPem`. */
async function holdsKeyOf(vault: KeyVault, keyId: string, publicKeyPem: string): Promise<'yes' | 'gone' | 'another'> {
  let privateKey;
  try {
    privateKey = createPrivateKey(await vault.readPrivateKey(keyId));
  } catch {
    return 'gone';
  }
  try {
    return spkiOf(privateKey) === spkiOf(publicKeyPem) ? 'yes' : 'another';
  } catch {
    return 'another';
  }
}

/** The local administrator's account, and whether this start gave it a new key (see the file's head). */
export interface LocalAdministrator {
  id: string;
  keyRenewed: boolean;
}

/** Returns the local administrator whose key `vault` holds, creating it or renewing its key when needed. */
export async function ensureLocalAdministrator(
  registry: RegistryContext,
  options: { previousId: string | undefined; vault: KeyVault; keyId: string; log?: (line: string) => void },
): Promise<LocalAdministrator> {
  const { previousId, vault, keyId } = options;
  const actor = { operatorId: null, actor: deskActor() };
  const previous = previousId === undefined ? undefined : operatorKeyOf(registry, previousId);
  if (previousId !== undefined && previous?.active) {
    const held = await holdsKeyOf(vault, keyId, previous.publicKeyPem);
    if (held === 'yes') return { id: previousId, keyRenewed: false };
    options.log?.(
      held === 'gone'
        ? goneBecause(vault)
        : "the local administrator key in its store is another account's (another desk data folder on this computer?): the account gets a new key",
    );
    const { publicKeyPem, privateKeyPem } = newKeyPair();
    await vault.importPrivateKey(keyId, privateKeyPem);
    const input = { operatorId: previousId, publicKeyPem };
    audited(registry, { ...actor, action: 'operators.setKey', input }, () => setOperatorKey(registry, input));
    return { id: previousId, keyRenewed: true };
  }
  // No account yet, or the one remembered was removed or disabled by a person: a new one.
  const { publicKeyPem, privateKeyPem } = newKeyPair();
  const input = { name: LOCAL_ADMINISTRATOR_NAME, role: 'administrator' as const, publicKeyPem };
  const { operator } = audited(registry, { ...actor, action: 'operators.create', input }, () => createOperator(registry, input));
  await vault.importPrivateKey(keyId, privateKeyPem);
  return { id: operator.id, keyRenewed: false };
}

/**
 * Why the key is gone, by its store: memory forgets it at every restart; the keychain keeps the
 * embedded registry's entries under the data folder's path (connection-keys.ts), so a folder moved or
 * copied (as the e2e tests copy a prepared one) finds none of its own.
 */
function goneBecause(vault: KeyVault): string {
  const why = {
    memory: 'is gone from its store (no OS keychain keeps it across restarts)',
    keychain: 'is not in the OS keychain under this data folder (the folder was moved or copied, or its entry removed)',
    'encrypted-file': 'is gone from its store',
  }[vault.kind];
  return `the local administrator key ${why}: the same account gets a new key`;
}

function newKeyPair(): { publicKeyPem: string; privateKeyPem: string } {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}
