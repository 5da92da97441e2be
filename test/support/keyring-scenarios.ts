// Keychain scenarios run against a real Secret Service. Each returns plain JSON observations, so the
// same code runs in the test process (CI: already inside a D-Bus session with gnome-keyring) or in
// a child re-executed under dbus-run-session (a developer's bare shell); the test asserts on them.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createKeychainStore, importPrivateKey, probeKeychain, readPrivateKey, type SecretStore } from '@desk/secrets';

/** A secret that is recognisable if it leaks anywhere (messages, logs). */
export const leakMarker = (): string => `S3CRET-${randomBytes(12).toString('hex')}`;

export function rsaKeyPair(bits = 2048): { privatePem: string; publicPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

const uniqueService = (label: string) => `registry-desk-test:${label}:${process.pid}:${randomBytes(4).toString('hex')}`;

async function errorMessageOf(work: () => Promise<unknown>): Promise<string | null> {
  try {
    await work();
    return null;
  } catch (error) {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }
}

export const scenarios = {
  /** set/get/delete, overwrite, unknown account, two services kept apart. */
  async roundTrip() {
    const a = createKeychainStore(uniqueService('a'));
    const b = createKeychainStore(uniqueService('b'));
    const first = leakMarker();
    const second = leakMarker();
    const unknownBefore = await a.get('app-key');
    await a.set('app-key', first);
    const afterSet = await a.get('app-key');
    const otherServiceSees = await b.get('app-key');
    await b.set('app-key', second);
    const eachSeesOwn = [await a.get('app-key'), await b.get('app-key')];
    await a.set('app-key', second);
    const afterOverwrite = await a.get('app-key');
    const deleted = await a.delete('app-key');
    const afterDelete = await a.get('app-key');
    const deletedAgain = await a.delete('app-key');
    const otherSurvivesDelete = await b.get('app-key');
    await b.delete('app-key');
    return {
      kind: a.kind,
      first,
      second,
      unknownBefore,
      afterSet,
      otherServiceSees,
      eachSeesOwn,
      afterOverwrite,
      deleted,
      afterDelete,
      deletedAgain,
      otherSurvivesDelete,
    };
  },

  /** importPrivateKey/readPrivateKey through the real keychain. */
  async privateKey() {
    const store: SecretStore = createKeychainStore(uniqueService('pk'));
    const { privatePem, publicPem } = rsaKeyPair();
    const missing = await readPrivateKey(store, 'app-key');
    const imported = await importPrivateKey(store, 'app-key', privatePem);
    const good = await readPrivateKey(store, 'app-key');
    const publicRefused = await errorMessageOf(() => importPrivateKey(store, 'other-key', publicPem));
    const afterRefusal = await store.get('other-key');
    const garbage = leakMarker();
    await store.set('app-key', garbage);
    const invalid = await readPrivateKey(store, 'app-key');
    await store.delete('app-key');
    return { missing, imported, good, privatePem, publicRefused, afterRefusal, garbage, invalid };
  },

  /** What probeKeychain says and how long it took. */
  async probe(args: { timeoutMs?: number }) {
    const started = Date.now();
    const result = await probeKeychain(args.timeoutMs === undefined ? {} : { timeoutMs: args.timeoutMs });
    return { result, elapsedMs: Date.now() - started };
  },

  /** A keychain store used where no keychain works: errors, and what readPrivateKey reports. */
  async unusableKeychain() {
    const store = createKeychainStore(uniqueService('down'));
    const secret = leakMarker();
    const setError = await errorMessageOf(() => store.set('app-key', secret));
    const getError = await errorMessageOf(() => store.get('app-key'));
    const deleteError = await errorMessageOf(() => store.delete('app-key'));
    const read = await readPrivateKey(store, 'app-key');
    const imported = await errorMessageOf(() => importPrivateKey(store, 'app-key', rsaKeyPair().privatePem));
    return { secret, setError, getError, deleteError, read, imported };
  },
};

export type ScenarioName = keyof typeof scenarios;
export type ScenarioResult<N extends ScenarioName> = Awaited<ReturnType<(typeof scenarios)[N]>>;
