// The operator interface's writes over real HTTP: 201 creations, refusals that leave one audit entry
// and change nothing, the audit search, Idempotency-Key replays and conflicts, and a property test
// over random sequences of operator writes (refused and repeated ones included): the audit log holds
// exactly one entry per authenticated attempt that was not a replay, the ledger reconciles, and
// replays change nothing.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { strict } from '@shared/registry/resources';
import { endpoints } from '@shared/registry/endpoints';
import * as ops from '@registry/operations';
import type { Fixture } from '@test/support/fixture';
import { auditRows, createTestOperator, operatorToken, type TestOperator } from '@test/support/operators';
import { requestFor, step, type SentRequest } from '@test/support/operator-write-steps';
import { useOperatorWritesWorld, type OperatorWritesWorld } from '@test/support/operator-writes-world';
import type { TestRegistry } from '@test/support/registry';

const { world, post, rowCounts, expectLedgerReconciles } = useOperatorWritesWorld();
let t: TestRegistry;
let f: Fixture;
let manager: TestOperator;
let viewer: TestOperator;
let tokens: OperatorWritesWorld['tokens'];
beforeAll(() => void ({ t, f, manager, viewer, tokens } = world));

describe('operator writes', () => {
  it('creates an organization: 201 with the organization, and one succeeded audit entry naming it', async () => {
    const res = await post(
      '/operator/v1/organizations',
      { fullName: 'Kenya Growers', countryCode: 'KE', type: 'projectProponent' },
      tokens.manager,
    );
    expect(res.status).toBe(201);
    const body = endpoints.operatorCreateOrganization.response(strict).parse(await res.json());
    expect(body.organization).toMatchObject({
      fullName: 'Kenya Growers',
      countryCode: 'KE',
      isVerified: false,
      accounts: [],
      projects: [],
    });
    const last = auditRows(t.registry).at(-1)!;
    expect(last).toMatchObject({ operator_id: manager.id, action: 'organizations.create', outcome: 'succeeded' });
    expect(JSON.parse(last.target_ids)).toContain(body.organization.id);

    const audit = await t.call(`/operator/v1/audit?targetId=${body.organization.id}&operatorId=${manager.id}`, { token: tokens.viewer });
    expect(audit.status).toBe(200);
    const page = endpoints.operatorSearchAudit.response(strict).parse(await audit.json());
    expect(page.entries).toHaveLength(1);
    expect(page.entries[0]).toMatchObject({ operatorId: manager.id, action: 'organizations.create', outcome: 'succeeded' });
    expect(page.nextCursor).toBeNull();
  });

  it('refuses a viewer issuing and a transfer over the balance, each with one refused entry and nothing changed', async () => {
    const issue = {
      projectId: f.projectId,
      vintage: '2024',
      amount: 5,
      monitoringPeriodStart: '2024-01-01',
      monitoringPeriodEnd: '2024-12-31',
      verificationBodyId: f.validatorId,
    };
    let before = rowCounts();
    let entries = auditRows(t.registry).length;
    const refused = await post('/operator/v1/issuances', issue, tokens.viewer);
    expect(refused.status).toBe(403);
    const after = rowCounts();
    expect({ ...after, audit_log: 0, audit_targets: 0 }).toEqual({ ...before, audit_log: 0, audit_targets: 0 });
    expect(auditRows(t.registry).length).toBe(entries + 1);
    expect(auditRows(t.registry).at(-1)).toMatchObject({ operator_id: viewer.id, action: 'credits.issue', outcome: 'refused' });

    before = rowCounts();
    entries = auditRows(t.registry).length;
    const over = await post(
      '/operator/v1/transfers',
      { from: { kind: 'inventory', organizationId: f.orgB }, to: { kind: 'adjustment' }, creditId: f.creditId, amount: 1_000_000 },
      tokens.manager,
    );
    expect(over.status).toBe(409);
    expect({ ...rowCounts(), audit_log: 0, audit_targets: 0 }).toEqual({ ...before, audit_log: 0, audit_targets: 0 });
    const last = auditRows(t.registry).at(-1)!;
    expect(auditRows(t.registry).length).toBe(entries + 1);
    expect(last).toMatchObject({ action: 'credits.transfer', outcome: 'refused' });
    expect(JSON.parse(last.detail)).toMatchObject({ error: { status: 409 } });

    const bad = await post('/operator/v1/issuances', { ...issue, amount: 0.0000001 }, tokens.manager);
    expect(bad.status).toBe(400);
    expect(auditRows(t.registry).at(-1)).toMatchObject({ action: 'credits.issue', outcome: 'refused' });
  });

  it('refuses issuing to an unverified organization (409, nothing changed) until it is verified', async () => {
    const project = ops.createProject(t.registry, {
      fullName: 'Gamma Grasslands',
      description: 'A grassland restoration project.',
      shortDescription: 'Grasslands',
      startDate: '2020-01-01T00:00:00.000Z',
      creditingPeriodStartDate: '2020-06-01T00:00:00.000Z',
      countryCode: 'BR',
      sector: { id: 'forestry', title: 'Forestry and land use' },
      methodology: { id: 'icr-ar-001', title: 'Afforestation and reforestation' },
      type: { id: 'removal', title: 'Removal', description: 'Removes CO2 from the atmosphere' },
      organizationId: f.orgC,
      validatorIds: [f.validatorId],
      status: 'validated',
    });
    const issue = {
      projectId: project.id,
      vintage: '2023',
      amount: 7,
      monitoringPeriodStart: '2023-01-01',
      monitoringPeriodEnd: '2023-12-31',
      verificationBodyId: f.validatorId,
    };
    const before = rowCounts();
    const refused = await post('/operator/v1/issuances', issue, tokens.manager);
    expect(refused.status).toBe(409);
    expect(JSON.stringify(await refused.json())).toMatch(/verified organization/);
    expect({ ...rowCounts(), audit_log: 0, audit_targets: 0 }).toEqual({ ...before, audit_log: 0, audit_targets: 0 });
    expect(auditRows(t.registry).at(-1)).toMatchObject({ action: 'credits.issue', outcome: 'refused' });

    const verified = await post(`/operator/v1/organizations/${f.orgC}/verification`, { verified: true }, tokens.manager);
    expect(verified.status).toBe(200);
    const issued = await post('/operator/v1/issuances', issue, tokens.manager);
    expect(issued.status).toBe(201);
    expectLedgerReconciles();
    // withdrawn again: the fixture's other tests see C as they built it
    expect((await post(`/operator/v1/organizations/${f.orgC}/verification`, { verified: false }, tokens.manager)).status).toBe(200);
  });

  it('answers a refused write retried with its key with the stored refusal, adding no entry', async () => {
    const body = {
      from: { kind: 'inventory', organizationId: f.orgB },
      to: { kind: 'adjustment' },
      creditId: f.creditId,
      amount: 1_000_000,
    };
    const first = await post('/operator/v1/transfers', body, tokens.manager, 'refused-idem-1');
    expect(first.status).toBe(409);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const answer = await first.text();
    const before = rowCounts();
    const again = await post('/operator/v1/transfers', body, tokens.manager, 'refused-idem-1');
    expect(again.status).toBe(409);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.text()).toBe(answer);
    expect(rowCounts()).toEqual(before);
    // the key still belongs to that request
    expect((await post('/operator/v1/transfers', { ...body, amount: 1 }, tokens.manager, 'refused-idem-1')).status).toBe(409);
    expect(auditRows(t.registry).at(-1)).toMatchObject({ action: 'credits.transfer', outcome: 'refused' });

    // bad input is a refusal too: stored, so the retry gets the same 400
    const bad = await post('/operator/v1/transfers', '{"amount": -1', tokens.manager, 'refused-idem-2');
    expect(bad.status).toBe(400);
    const badAgain = await post('/operator/v1/transfers', '{"amount": -1', tokens.manager, 'refused-idem-2');
    expect(badAgain.status).toBe(400);
    expect(badAgain.headers.get('idempotent-replayed')).toBe('true');

    // a role refusal comes before the key is read: nothing stored, the request runs again
    const viewerFirst = await post('/operator/v1/transfers', body, tokens.viewer, 'refused-idem-3');
    expect(viewerFirst.status).toBe(403);
    const viewerAgain = await post('/operator/v1/transfers', body, tokens.viewer, 'refused-idem-3');
    expect(viewerAgain.status).toBe(403);
    expect(viewerAgain.headers.get('idempotent-replayed')).toBeNull();

    // after 24 hours the stored refusal is forgotten like an answer: the request runs again
    t.clock.advance(24 * 60 * 60 * 1000 + 1);
    tokens.manager = await operatorToken(t, manager);
    tokens.viewer = await operatorToken(t, viewer);
    const entries = auditRows(t.registry).length;
    const later = await post('/operator/v1/transfers', body, tokens.manager, 'refused-idem-1');
    expect(later.status).toBe(409);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(auditRows(t.registry).length).toBe(entries + 1);
  });

  it('replays an idempotent write and refuses the key for another request', async () => {
    const body = { fullName: 'Idempotent Org', countryCode: 'BR', type: 'buyer' };
    const first = await post('/operator/v1/organizations', body, tokens.manager, 'create-idem-1');
    expect(first.status).toBe(201);
    const answer = await first.json();
    const before = rowCounts();
    const again = await post(
      '/operator/v1/organizations',
      { type: 'buyer', countryCode: 'BR', fullName: 'Idempotent Org' },
      tokens.manager,
      'create-idem-1',
    );
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(answer);
    expect(rowCounts()).toEqual(before);

    const other = await post('/operator/v1/organizations', { ...body, fullName: 'Another' }, tokens.manager, 'create-idem-1');
    expect(other.status).toBe(409);
    expect(auditRows(t.registry).at(-1)).toMatchObject({ action: 'organizations.create', outcome: 'refused' });
    // the same key from another operator is another key
    const admin = createTestOperator(t.registry, 'administrator', 4);
    const fromAdmin = await post('/operator/v1/organizations', body, await operatorToken(t, admin), 'create-idem-1');
    expect(fromAdmin.status).toBe(201);
    expect(((await fromAdmin.json()) as { organization: { id: string } }).organization.id).not.toBe(
      (answer as { organization: { id: string } }).organization.id,
    );

    expect((await post('/operator/v1/organizations', body, tokens.manager, 'k'.repeat(201))).status).toBe(400);
    // after 24 hours the key is forgotten: the request runs again
    t.clock.advance(24 * 60 * 60 * 1000 + 1);
    tokens.manager = await operatorToken(t, manager);
    tokens.viewer = await operatorToken(t, viewer);
    const later = await post('/operator/v1/organizations', body, tokens.manager, 'create-idem-1');
    expect(later.status).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
  });

  it('pages the audit log newest first and filters it by action and time', async () => {
    const all: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await t.call(`/operator/v1/audit?limit=3${cursor ? `&cursor=${cursor}` : ''}`, { token: tokens.viewer });
      expect(res.status).toBe(200);
      const page = endpoints.operatorSearchAudit.response(strict).parse(await res.json());
      all.push(...page.entries.map((e) => e.at));
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(all.length).toBe(auditRows(t.registry).length);
    expect([...all].sort().reverse()).toEqual(all);

    const from = new Date(t.registry.clock.now() - 60_000).toISOString();
    const recent = await t.call(`/operator/v1/audit?action=organizations.create&from=${from}`, { token: tokens.viewer });
    const page = endpoints.operatorSearchAudit.response(strict).parse(await recent.json());
    expect(page.entries.length).toBeGreaterThan(0);
    for (const e of page.entries) expect(e.action).toBe('organizations.create');
    expect((await t.call('/operator/v1/audit?cursor=nonsense', { token: tokens.viewer })).status).toBe(400);
  });
});

describe('random sequences of operator writes', () => {
  it('leave one audit entry per authenticated attempt, reconcile, and replays change nothing', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 10 }), async (steps) => {
        run++;
        // keys are per run, so runs do not replay each other's requests
        const sent: SentRequest[] = [];
        // key → its stored request (canonical body) and answer: successes and refusals alike
        const stored = new Map<string, { body: string; path: string; status: number; answer: string }>();
        for (const s of steps) {
          const request = requestFor(s, run, sent, f, tokens);
          if (request === undefined) continue;
          const { path, body, token, key: k } = request;
          const fullKey = k === undefined ? undefined : k.startsWith(`r${run}:`) ? k : `r${run}:${k}`;
          const canonicalBody = JSON.stringify(body);
          const storedFirst = fullKey !== undefined ? stored.get(`${token}|${fullKey}`) : undefined;
          const isReplay = storedFirst !== undefined && storedFirst.body === canonicalBody && storedFirst.path === path;
          const countsBefore = rowCounts();
          const entriesBefore = auditRows(t.registry).length;
          const res = await post(path, body, token, fullKey);
          const text = await res.text();
          expect(res.status).not.toBe(500);
          if (isReplay) {
            expect(rowCounts()).toEqual(countsBefore);
            expect(auditRows(t.registry).length).toBe(entriesBefore);
            expect(res.status).toBe(storedFirst.status);
            expect(text).toBe(storedFirst.answer);
            expect(res.headers.get('idempotent-replayed')).toBe('true');
          } else {
            expect(auditRows(t.registry).length).toBe(entriesBefore + 1);
            // the key already answered another request
            if (storedFirst !== undefined) expect(res.status).toBe(409);
          }
          if (fullKey !== undefined && storedFirst === undefined) {
            stored.set(`${token}|${fullKey}`, { body: canonicalBody, path, status: res.status, answer: text });
          }
          if (fullKey !== undefined) sent.push({ path, body, key: fullKey, token, status: res.status, answer: text });
          expectLedgerReconciles();
        }
      }),
      { numRuns: 25 },
    );
  });
});
