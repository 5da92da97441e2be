// The memory store other modules' tests use, held to the same SecretStore contract as the real
// stores, and the connection service name.
import { describe, expect, it } from 'vitest';
import { createMemoryStore, InvalidSecretInputError, serviceForConnection } from '@desk/secrets';

describe('memory store', () => {
  it('stores, overwrites, deletes; unknown is null', async () => {
    const store = createMemoryStore({ seeded: 'one' });
    expect(store.kind).toBe('memory');
    expect(await store.get('seeded')).toBe('one');
    expect(await store.get('unknown')).toBeNull();
    await store.set('seeded', 'two');
    expect(await store.get('seeded')).toBe('two');
    expect(await store.delete('seeded')).toBe(true);
    expect(await store.delete('seeded')).toBe(false);
    expect(await store.get('seeded')).toBeNull();
  });

  it('validates like the real stores and changes nothing on bad input', async () => {
    const store = createMemoryStore({ kept: 'value' });
    await expect(store.set('', 'x')).rejects.toThrow(InvalidSecretInputError);
    await expect(store.set('kept', '')).rejects.toThrow('Invalid secret: must not be empty.');
    await expect(store.get(7 as unknown as string)).rejects.toThrow('Invalid account: expected string.');
    expect(await store.get('kept')).toBe('value');
    expect(() => createMemoryStore({ '': 'x' })).toThrow(InvalidSecretInputError);
  });

  it('keeps separate instances separate (one store per service)', async () => {
    const a = createMemoryStore();
    const b = createMemoryStore();
    await a.set('app-key', 'A');
    expect(await b.get('app-key')).toBeNull();
  });
});

describe('serviceForConnection', () => {
  it('names the keychain service of a registry connection', () => {
    expect(serviceForConnection('conn_123')).toBe('registry-desk:conn_123');
    expect(() => serviceForConnection('bad\nid')).toThrow(InvalidSecretInputError);
  });
});
