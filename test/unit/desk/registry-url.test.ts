// Tokens never cross the network in clear: a remote registry is https:, http: only on loopback
// (the embedded and local test registries). The settings input (zod), the command line and the
// desk's client all refuse anything else; the client before any key is read or request is sent.
import { describe, expect, it } from 'vitest';
import { deskApi, isAllowedRegistryUrl, isLoopbackHost, REGISTRY_URL_RULE } from '@shared/desk/api';
import { systemClock } from '@platform/clock';
import { clientFor } from '@desk/connection-runtime';
import { LaunchOptionsError, parseLaunchOptions } from '@desk/launch-options';

describe('registry addresses', () => {
  it('https: anywhere; http: only for localhost, 127.0.0.0/8 and [::1]', () => {
    for (const url of [
      'https://registry.example.org',
      'https://10.0.0.5:8443/api',
      'http://127.0.0.1:4000',
      'http://localhost:8080',
      'http://[::1]:9000',
      'http://127.1.2.3',
    ])
      expect(isAllowedRegistryUrl(url), url).toBe(true);
    for (const url of [
      'http://registry.example.org',
      'http://10.0.0.5:8080',
      'http://192.168.1.2',
      'http://localhost.example.org',
      'http://127.0.0.1.nip.io',
      'http://[::2]',
      'ftp://localhost',
      'file:///etc/passwd',
      'not a url',
      'http://evil.example\\@localhost',
      'http://localhost\\@evil.example',
      'http://local\thost',
    ])
      expect(isAllowedRegistryUrl(url), url).toBe(false);
    expect(isLoopbackHost('LOCALHOST')).toBe(true);
    expect(isLoopbackHost('desk.localhost')).toBe(true);
  });

  it("the settings input refuses http: to another computer with the rule's sentence", () => {
    const input = { name: 'Remote', appId: 'a6b3f6c4-5b8e-4a52-9a8e-0e5a8d0b6f21', keyHandle: 'K'.repeat(24) };
    const schema = deskApi['connections.addRemote'].input;
    const refused = schema.safeParse({ ...input, baseUrl: 'http://registry.example.org' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((issue) => issue.message)).toContain(REGISTRY_URL_RULE);
    expect(schema.safeParse({ ...input, baseUrl: 'https://registry.example.org' }).error?.issues.map((i) => i.path[0]) ?? []).not.toContain(
      'baseUrl',
    );
    expect(schema.safeParse({ ...input, baseUrl: 'http://127.0.0.1:4000' }).error?.issues.map((i) => i.path[0]) ?? []).not.toContain(
      'baseUrl',
    );
  });

  it('the command line refuses it too', () => {
    const args = ['--app-id', 'app', '--key-file', '/nonexistent.pem'];
    expect(() => parseLaunchOptions(['--registry-url', 'http://registry.example.org', ...args])).toThrow(LaunchOptionsError);
    expect(() => parseLaunchOptions(['--registry-url', 'http://registry.example.org', ...args])).toThrow(REGISTRY_URL_RULE);
    // A loopback http: address passes the address check (and then fails on the missing key file).
    expect(() => parseLaunchOptions(['--registry-url', 'http://127.0.0.1:4000', ...args])).toThrow(
      /--key-file \/nonexistent\.pem cannot be read/,
    );
  });

  it("the desk's client reads no key and sends nothing for a stored http: address to another computer", async () => {
    let keyReads = 0;
    const requests: string[] = [];
    const client = clientFor({
      baseUrl: 'http://registry.example.org',
      appId: 'app',
      loadPrivateKey: () => {
        keyReads++;
        return Promise.resolve('unused');
      },
      clock: systemClock,
      fetch: () => {
        requests.push('request');
        return Promise.reject(new Error('no network in this test'));
      },
    });
    await expect(client.tokens.grant({ kind: 'app' })).rejects.toThrow(REGISTRY_URL_RULE);
    expect(keyReads).toBe(0);
    expect(requests).toEqual([]);
  });
});
