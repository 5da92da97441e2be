// How the desk learns the app's examiner grant (desk/examiner-probe.ts) from registries other than
// ours: one that fixes the grant in each token when it issues it (the interface allows it: the token
// answer carries `permissions`), and one that serves no internal list. A stand-in registry on
// loopback, since ours does neither; the desk's token manager and client are the real ones.
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import { createRegistryClient } from '@desk/client/registry-client';
import { createTokenManager } from '@desk/client/tokens';
import { probeExaminerRead } from '@desk/examiner-probe';
import { ManualClock } from '@platform/clock';
import { rsaKeyPair } from '@test/support/registry';

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

const HOUR = 60 * 60 * 1000;
const page = { pagination: { total: 0, currentPage: 0, pageCount: 0, nextPage: null, prevPage: null }, projects: [] };

/**
 * A registry that keeps each token's examiner grant as it was at issue. `internalList`: how its
 * internal list answers ('snapshot': by the bearer's grant at issue; or always this status).
 */
async function startRegistry(internalList: 'snapshot' | 401 | 404) {
  const state = { granted: true, minted: 0 };
  const grantOf = new Map<string, boolean>();
  const app = new Hono();
  app.post('/app/accessTokens', (c) => {
    const token = `rdt_${String(++state.minted).padStart(48, '0')}`;
    grantOf.set(token, state.granted);
    return c.json({
      id: `t${state.minted}`,
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-01T00:00:00.000Z',
      token,
      expiresAt: '2024-01-01T01:00:00.000Z',
      isActive: true,
      permissions: state.granted ? { examiner: 'READ' } : {},
      appId: 'app',
    });
  });
  app.get('/projects/internal', (c) => {
    if (internalList !== 'snapshot') return c.json({ statusCode: internalList, message: 'no', error: 'Refused' }, internalList);
    const granted = grantOf.get(c.req.header('authorization')?.replace(/^Bearer /, '') ?? '');
    return granted ? c.json(page) : c.json({ statusCode: 403, message: 'Missing permission examiner:read', error: 'Forbidden' }, 403);
  });
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  servers.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clock = new ManualClock(Date.parse('2024-01-01T00:00:00.000Z'));
  const tokens = createTokenManager({ baseUrl: url, appId: 'app', loadPrivateKey: async () => rsaKeyPair(0).privateKey, clock });
  const client = createRegistryClient({ baseUrl: url, tokens, clock, retry: { maxAttempts: 1 } });
  return { state, clock, client };
}

describe("the examiner grant, asked with the desk's kept app token", () => {
  it('follows a registry that fixes the grant in its tokens at the next token, and mints none to ask', async () => {
    const { state, clock, client } = await startRegistry('snapshot');
    expect((await probeExaminerRead(client)).examinerRead).toBe(true);
    state.granted = false;
    // The kept token still reads internal projects there: that is what the sync can do with it.
    expect((await probeExaminerRead(client)).examinerRead).toBe(true);
    expect(state.minted).toBe(1);
    // Its replacement, shortly before it expires, carries the revocation.
    clock.advance(HOUR - 4 * 60 * 1000);
    expect((await probeExaminerRead(client)).examinerRead).toBe(false);
    expect(state.minted).toBe(2);
  });

  it('hands back the page it asked, for the sync to write', async () => {
    const { client } = await startRegistry('snapshot');
    const probe = await probeExaminerRead(client, { page: 0, limit: 10 });
    expect(probe.query).toEqual({ page: 0, limit: 10 });
    expect(JSON.parse(probe.answer!.text)).toEqual(page);
  });

  it("falls back to the token's permissions on a registry without the internal list", async () => {
    const { state, clock, client } = await startRegistry(404);
    expect((await probeExaminerRead(client)).examinerRead).toBe(true);
    state.granted = false;
    clock.advance(HOUR);
    expect((await probeExaminerRead(client)).examinerRead).toBe(false);
  });

  it('fails as a token request would when the registry refuses the app itself', async () => {
    const { state, client } = await startRegistry(401);
    await expect(probeExaminerRead(client)).rejects.toMatchObject({ kind: 'http', status: 401 });
    // The refused token was dropped and a new one tried once.
    expect(state.minted).toBe(2);
  });
});
