// The back office's desk side against a real registry on loopback: the session (operator, role,
// what each endpoint allows and why not), reads through the client with the saved answer offline,
// and writes with the renderer's idempotency key: a dropped answer is retried with the same key
// (exactly one effect), a refusal reads as a sentence, a write with no answer at all is `unsure`
// until settle re-sends it, and nothing is sent for input the row refuses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskEvent } from '@shared/desk/api';
import { createDeskService, type DeskService } from '@desk/service';
import type { SecretStoreFactory } from '@desk/key-vault';
import { openSecretStore } from '@desk/secret-stores';
import * as ops from '@registry/operations';
import { auditRows, createTestOperator, type TestOperator } from '@test/support/operators';
import { createTestApp, makeDataDir, rsaKeyPair, startTestRegistry, type TestApp, type TestRegistry } from '@test/support/registry';
import { deskCalls } from '@test/support/desk-calls';
import { buildFixture, type Fixture } from '@test/support/fixture';

const secretStoreFactory: SecretStoreFactory = (kind, options) => openSecretStore(kind, options);
const pemOf = (index: number) => rsaKeyPair(index).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

let registry: TestRegistry;
let f: Fixture;
let app: TestApp;
let manager: TestOperator;
let viewer: TestOperator;
let data: { dir: string; remove(): void };
let desk: DeskService;
const events: DeskEvent[] = [];
const { ok, fails } = deskCalls(() => desk);

/** The network between desk and registry: `down` refuses every connection; `dropAnswers` lets n requests through and loses their answers. */
const network = { down: false, dropAnswers: 0, sent: [] as string[] };
const fetchThrough = async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
  const url = String(input instanceof Request ? input.url : input);
  if (network.down) throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
  network.sent.push(`${init?.method ?? 'GET'} ${new URL(url).pathname}`);
  const response = await fetch(input, init);
  if (network.dropAnswers > 0 && !url.endsWith('/operator/v1/tokens')) {
    network.dropAnswers--;
    await response.arrayBuffer();
    throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } });
  }
  return response;
};

const connectionFor = async (name: string, operator: TestOperator, keyIndex: number) =>
  ok('connections.addRemote', {
    name,
    baseUrl: registry.url,
    appId: app.id,
    keyHandle: desk.keyImports.put(pemOf(0), 'app.pem').handle,
    operator: { id: operator.id, keyHandle: desk.keyImports.put(pemOf(keyIndex), 'operator.pem').handle },
    encryptedFileFallback: { passphrase: 'correct horse battery', userConfirmed: true },
  });

let managerConnection: string;
let viewerConnection: string;
let commandLineConnection: string;

beforeAll(async () => {
  registry = await startTestRegistry({
    setup: (r) => {
      f = buildFixture(r);
      const organizationId = ops.createOrganization(r, { fullName: 'Remote Org', countryCode: 'DE', verified: true }).id;
      app = createTestApp(r, { name: 'Back-office desk app', keyIndex: 0 });
      ops.installApp(r, { appId: app.id, organizationId, permissions: { organization_warehouse: 'VIEW' } });
    },
  });
  manager = createTestOperator(registry.registry, 'manager', 2);
  viewer = createTestOperator(registry.registry, 'viewer', 3);
  data = makeDataDir('desk-back-office-');
  desk = await createDeskService({
    dataDir: data.dir,
    host: 'web',
    version: 't',
    seedDemo: () => {
      throw new Error('no embedded registry here');
    },
    remote: { baseUrl: registry.url, appId: app.id, privateKeyPem: pemOf(0) },
    secretStoreFactory,
    probeKeychain: async () => ({ available: false, reason: 'no keychain in tests' }),
    autoSync: false,
    fetch: fetchThrough,
    syncWorker: false,
    probe: false,
    backOffice: { writeAttempts: 2, writeRetryDelayMs: 1 },
  });
  desk.onEvent((event) => events.push(event));
  commandLineConnection = (await ok('connections.list', {})).activeId!;
  managerConnection = (await connectionFor('Manager', manager, 2)).id;
  viewerConnection = (await connectionFor('Viewer', viewer, 3)).id;
  await ok('connections.activate', { id: managerConnection });
}, 60_000);

afterAll(async () => {
  await desk?.close();
  data?.remove();
  await registry?.close();
});

const organizationsNamed = (name: string) =>
  (registry.registry.db.raw.prepare('SELECT COUNT(*) AS n FROM organizations WHERE full_name = ?').get(name) as { n: number }).n;

describe('backOffice.session', () => {
  it("names the operator and its role, and allows each endpoint by the table's role", async () => {
    const session = await ok('backOffice.session', {});
    expect(session).toMatchObject({ available: true, online: true, operator: { id: manager.id, role: 'manager' } });
    const name = session.operator!.name;
    expect(session.can.operatorListOrganizations).toEqual({ allowed: true });
    expect(session.can.operatorCreateOrganization).toEqual({ allowed: true });
    expect(session.can.operatorCreateOperator).toEqual({
      allowed: false,
      reason: `Needs the administrator role: ${name} is a manager`,
    });
  });

  it('as a viewer allows every read and no write', async () => {
    await ok('connections.activate', { id: viewerConnection });
    const session = await ok('backOffice.session', {});
    expect(session.operator?.role).toBe('viewer');
    expect(session.can.operatorSearchAudit).toEqual({ allowed: true });
    expect(session.can.operatorSetOrganizationVerified).toMatchObject({ allowed: false, reason: expect.stringContaining('manager role') });
    await ok('connections.activate', { id: managerConnection });
  });

  it('says how to add an operator account when the connection has none', async () => {
    await ok('connections.activate', { id: commandLineConnection });
    const session = await ok('backOffice.session', {});
    expect(session.available).toBe(false);
    expect(session.reason).toContain('Settings');
    expect(session.can.operatorListOrganizations).toMatchObject({ allowed: false });
    expect((await fails('backOffice.read', { endpoint: 'operatorListOrganizations' })).code).toBe('forbidden');
    await ok('connections.activate', { id: managerConnection });
  });
});

describe('backOffice.read', () => {
  it('reads through the client, and answers the saved answer when the registry cannot be reached', async () => {
    const read = { endpoint: 'operatorListOrganizations', query: { limit: 50, page: 0 } } as const;
    const online = await ok('backOffice.read', read);
    expect(online.source).toBe('registry');
    expect(JSON.stringify(online.data)).toContain('Remote Org');
    network.down = true;
    try {
      const offline = await ok('backOffice.read', { endpoint: 'operatorListOrganizations', query: { page: '0', limit: '50' } });
      expect(offline).toEqual({ ...online, source: 'cache' });
      const unsaved = await fails('backOffice.read', { endpoint: 'operatorListAccounts' });
      expect(unsaved).toMatchObject({ code: 'offline', message: expect.stringContaining('has not saved this view yet') });
      const session = await ok('backOffice.session', {});
      expect(session).toMatchObject({ available: true, online: false, operator: { id: manager.id }, syncedAt: online.fetchedAt });
      expect(session.can.operatorListOrganizations).toEqual({ allowed: true });
      expect(session.can.operatorCreateOrganization).toMatchObject({
        allowed: false,
        reason: expect.stringMatching(/^Offline: the registry cannot be reached; the data shown is from \d+ seconds? ago$/),
      });
      // a write that never left the desk changed nothing and says so
      const before = auditRows(registry.registry).length;
      const write = await fails('backOffice.write', {
        endpoint: 'operatorCreateOrganization',
        body: { fullName: 'Never sent', countryCode: 'KE', type: 'buyer' },
        idempotencyKey: 'offline-1',
      });
      expect(write.code).toBe('offline');
      expect(auditRows(registry.registry).length).toBe(before);
    } finally {
      network.down = false;
    }
  });

  it("refuses params and queries the row's schemas refuse, naming them, before anything is sent", async () => {
    const sent = network.sent.length;
    const bad = await fails('backOffice.read', { endpoint: 'operatorSearchAudit', query: { from: 'yesterday' } });
    expect(bad.code).toBe('invalid_input');
    expect(bad.message).toContain('query.from');
    expect(network.sent.length).toBe(sent);
  });
});

describe('backOffice.write', () => {
  it('retries a write whose answer was lost with the same key: done, exactly one effect, then backOffice.changed', async () => {
    const before = auditRows(registry.registry).length;
    events.length = 0;
    network.dropAnswers = 1;
    const result = await ok('backOffice.write', {
      endpoint: 'operatorCreateOrganization',
      body: { fullName: 'Dropped Answer Ltd', countryCode: 'KE', type: 'buyer' },
      idempotencyKey: 'write-dropped-1',
    });
    expect(result.outcome).toBe('done');
    expect(JSON.stringify(result)).toContain('Dropped Answer Ltd');
    expect(organizationsNamed('Dropped Answer Ltd')).toBe(1);
    expect(auditRows(registry.registry).slice(before)).toEqual([
      expect.objectContaining({ action: 'organizations.create', outcome: 'succeeded', operator_id: manager.id }),
    ]);
    expect(events).toContainEqual({ type: 'backOffice.changed', endpoint: 'operatorCreateOrganization' });
  });

  it('answers a refusal as a plain sentence with its status', async () => {
    const result = await ok('backOffice.write', {
      endpoint: 'operatorSetOrganizationVerified',
      params: { organizationId: 'no-such-organization' },
      body: { verified: true },
      idempotencyKey: 'refused-1',
    });
    expect(result).toMatchObject({ outcome: 'refused', status: 404, message: expect.stringContaining('no-such-organization') });
  });

  it('is unsure when no answer ever came back, and settle (same key, same body) makes it done once', async () => {
    const write = {
      endpoint: 'operatorCreateOrganization',
      body: { fullName: 'Unsure Ltd', countryCode: 'KE', type: 'buyer' },
      idempotencyKey: 'unsure-1',
    } as const;
    network.dropAnswers = 100;
    const unsure = await ok('backOffice.write', write).finally(() => (network.dropAnswers = 0));
    expect(unsure).toMatchObject({ outcome: 'unsure', message: expect.stringContaining('may or may not') });
    const settled = await ok('backOffice.settle', write);
    expect(settled.outcome).toBe('done');
    expect(organizationsNamed('Unsure Ltd')).toBe(1);
  });

  it('refuses a body the row refuses, or no idempotency key, before sending anything', async () => {
    const sent = network.sent.length;
    const bad = await fails('backOffice.write', {
      endpoint: 'operatorCreateOrganization',
      body: { fullName: '', countryCode: 'KEN' },
      idempotencyKey: 'bad-1',
    });
    expect(bad.code).toBe('invalid_input');
    expect(network.sent.length).toBe(sent);
    const noKey = await fails('backOffice.write', { endpoint: 'operatorCreateOrganization', body: {} });
    expect(noKey.code).toBe('invalid_input');
  });
});

describe('the back-office cache', () => {
  it('keeps the audit log, credit histories and every list for offline review, and syncs the audit log incrementally', async () => {
    await desk.syncBackOffice();
    const online = await ok('backOffice.read', { endpoint: 'operatorSearchAudit', query: { limit: 100, action: 'organizations.create' } });
    const history = await ok('backOffice.read', { endpoint: 'operatorCreditHistory', query: { creditId: f.creditId } });
    const organization = await ok('backOffice.read', { endpoint: 'operatorGetOrganization', params: { organizationId: f.orgA } });
    const accountIds = (organization.data as { organization: { accounts: { id: string }[] } }).organization.accounts.map((a) => a.id);
    const movements = await ok('backOffice.accountMovements', { accountIds, limit: 5 });
    expect(movements.total).toBeGreaterThan(0);
    expect(movements.movements[0]!.serialization).toEqual(expect.any(String));

    // a write after the sync: the next sync adds only the newer entries
    await ok('backOffice.write', {
      endpoint: 'operatorCreateOrganization',
      body: { fullName: 'After Sync Ltd', countryCode: 'KE', type: 'buyer' },
      idempotencyKey: 'after-sync-1',
    });
    await desk.syncBackOffice();
    network.down = true;
    try {
      const audit = await ok('backOffice.read', { endpoint: 'operatorSearchAudit', query: { limit: 100, action: 'organizations.create' } });
      expect(audit.source).toBe('cache');
      const entries = (audit.data as { entries: { action: string; detail: Record<string, unknown> }[] }).entries;
      expect(entries.every((e) => e.action === 'organizations.create')).toBe(true);
      expect(entries.length).toBe((online.data as { entries: unknown[] }).entries.length + 1);
      expect(JSON.stringify(entries[0])).toContain('After Sync Ltd');
      const paged = await ok('backOffice.read', { endpoint: 'operatorSearchAudit', query: { limit: 1 } });
      const next = (paged.data as { nextCursor: string | null }).nextCursor;
      expect(next).toMatch(/^local:/);
      const second = await ok('backOffice.read', { endpoint: 'operatorSearchAudit', query: { limit: 1, cursor: next! } });
      expect(second.data).not.toEqual(paged.data);
      const offlineHistory = await ok('backOffice.read', { endpoint: 'operatorCreditHistory', query: { creditId: f.creditId } });
      expect(offlineHistory).toMatchObject({ source: 'cache', data: history.data });
      const organizations = await ok('backOffice.read', { endpoint: 'operatorListOrganizations', query: { limit: 100, page: 0 } });
      expect(JSON.stringify(organizations.data)).toContain('After Sync Ltd');
    } finally {
      network.down = false;
    }
  });
});
