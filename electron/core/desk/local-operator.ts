// The embedded registry's local administrator: at the first start the desk creates an operator
// account (role administrator) in its own embedded registry, keeps the private key in the same store
// as the embedded app key (the OS keychain, or memory where there is none), and remembers the
// account's id in the connection. Later starts reuse it while the store holds its key; when the key
// is gone (a memory store after a restart) or is not that account's (another desk's data folder on
// this computer uses the same keychain entry, and its start replaced the key) the old account is
// disabled and a new one made, so no account is left whose key nobody holds and the desk never keeps
// signing with a key the registry will refuse. Both are audit entries with the desk as their actor.
import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { userInfo } from 'node:os';
import { audited, type RegistryContext, createOperator, setOperatorActive } from '../registry';
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

/** Returns the id of the local administrator whose key `vault` holds, creating it when needed. */
export async function ensureLocalAdministrator(
  registry: RegistryContext,
  options: { previousId: string | undefined; vault: KeyVault; keyId: string; log?: (line: string) => void },
): Promise<string> {
  const { previousId, vault, keyId } = options;
  const actor = { operatorId: null, actor: deskActor() };
  // The account this one replaces is disabled once the new one exists: the last active
  // administrator cannot be disabled (operations/operators.ts).
  let replaced: string | undefined;
  if (previousId !== undefined) {
    const { db } = registry;
    const row = db.first(db.q.selectFrom('operators').select(['active', 'public_key_pem']).where('id', '=', previousId));
    if (row?.active === 1) {
      const held = await holdsKeyOf(vault, keyId, row.public_key_pem);
      if (held === 'yes') return previousId;
      options.log?.(
        held === 'gone'
          ? 'the local administrator key is gone from its store: disabling that account and making a new one'
          : "the local administrator key in its store is another account's (another desk data folder on this computer?): disabling that account and making a new one",
      );
      replaced = previousId;
    }
  }
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const input = {
    name: LOCAL_ADMINISTRATOR_NAME,
    role: 'administrator' as const,
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
  const { operator } = audited(registry, { ...actor, action: 'operators.create', input }, () => createOperator(registry, input));
  await vault.importPrivateKey(keyId, privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
  if (replaced !== undefined) {
    const id = replaced;
    audited(registry, { ...actor, action: 'operators.setActive', input: { operatorId: id, active: false } }, () =>
      setOperatorActive(registry, { operatorId: id, active: false }),
    );
  }
  return operator.id;
}
