// An in-memory SecretStore for tests of modules that need one (and for a desk session that must
// not persist anything). Validates exactly like the real stores so tests catch the same mistakes.
import type { SecretStore } from './types';
import { accountNameSchema, parseInput, secretSchema } from './validation';

export function createMemoryStore(initial: Readonly<Record<string, string>> = {}): SecretStore {
  const secrets = new Map<string, string>();
  for (const [account, secret] of Object.entries(initial)) {
    secrets.set(parseInput(accountNameSchema, account, 'account'), parseInput(secretSchema, secret, 'secret'));
  }
  return {
    kind: 'memory',
    async get(account) {
      return secrets.get(parseInput(accountNameSchema, account, 'account')) ?? null;
    },
    async set(account, secret) {
      const name = parseInput(accountNameSchema, account, 'account');
      secrets.set(name, parseInput(secretSchema, secret, 'secret'));
    },
    async delete(account) {
      return secrets.delete(parseInput(accountNameSchema, account, 'account'));
    },
  };
}
