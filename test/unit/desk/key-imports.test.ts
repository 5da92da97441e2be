// The app keys the user picked, held by handle between the pick and the call that stores them.
import { describe, expect, it } from 'vitest';
import { AdjustableClock, ManualClock } from '@platform/clock';
import { createKeyImports, KEY_IMPORT_TTL_MS } from '@desk/key-imports';
import { rsaKeyPair } from '@test/support/registry';

const pem = rsaKeyPair(0).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

describe('key imports', () => {
  it('keeps a checked PEM under a random handle with a plain file name, until released', () => {
    const imports = createKeyImports(new AdjustableClock());
    const picked = imports.put(pem, '/home/u/keys/app\u0007.pem');
    expect(picked).toEqual({ handle: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/), fileName: 'app.pem' });
    expect(imports.get(picked.handle)).toBe(pem);
    expect(imports.put(pem, 'app.pem').handle).not.toBe(picked.handle);
    imports.release(picked.handle);
    expect(() => imports.get(picked.handle)).toThrow('The chosen key file is no longer available: choose it again');
  });

  it('refuses what is not an RSA key or too large, never echoing it', () => {
    const imports = createKeyImports(new AdjustableClock());
    const fake = `-----BEGIN PRIVATE KEY-----\n${'QUFB'.repeat(60)}\n-----END PRIVATE KEY-----`;
    expect(() => imports.put(fake, 'fake.pem')).toThrow('The private key is not a PEM-encoded RSA private key');
    expect(() => imports.put('x'.repeat(20_001), 'big.pem')).toThrow('big.pem is too large to be a key file (at most 20 KB)');
  });

  it("takes a demo registry's demo-credentials.json: the app's key, or the named operator's", () => {
    const imports = createKeyImports(new AdjustableClock());
    // Another PEM without generating another key (slow): the same key written as PKCS#1.
    const operatorPem = rsaKeyPair(0).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const operator = { id: '7d0c3a44-0000-4000-8000-000000000001', name: 'Demo administrator', role: 'administrator' };
    const file = JSON.stringify({
      app: { id: 'app', name: 'Demo', privateKeyPem: pem },
      installations: [],
      wallets: [{ address: '0x', privateKey: '0x', retirements: [] }],
      operators: [{ ...operator, privateKeyPem: operatorPem }],
    });
    const { handle } = imports.put(file, 'demo-credentials.json');
    expect(imports.get(handle)).toBe(pem);
    expect(imports.get(handle, operator.id)).toBe(operatorPem);
    expect(() => imports.get(handle, 'someone-else')).toThrow(
      `demo-credentials.json holds no key for operator someone-else; its operators are Demo administrator (administrator): ${operator.id}`,
    );
    // Other JSON is no key file; nor is a credentials file with a broken key.
    expect(() => imports.put('{"hello": 1}', 'other.json')).toThrow('The private key is not a PEM-encoded RSA private key');
    const broken = file.replace(JSON.stringify(operatorPem).slice(1, 80), 'x');
    expect(() => imports.put(broken, 'demo-credentials.json')).toThrow('The private key is not a PEM-encoded RSA private key');
  });

  it('forgets a pick after ten minutes', () => {
    // A clock that stands still between steps: on the system clock, a busy machine's millisecond
    // between put and get would expire the pick one step early.
    const clock = new ManualClock(Date.parse('2026-11-26T00:00:00Z'));
    const imports = createKeyImports(clock);
    const { handle } = imports.put(pem, 'app.pem');
    clock.advance(KEY_IMPORT_TTL_MS - 1);
    expect(imports.get(handle)).toBe(pem);
    clock.advance(1);
    expect(() => imports.get(handle)).toThrow(/no longer available/);
  });
});
