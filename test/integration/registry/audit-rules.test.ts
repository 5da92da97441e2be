// The audit rule over real HTTP (issue 32): targets come from the validated input and the result
// only (unknown fields are refused); every refused operator request, every write attempt (dry runs
// included) and every token grant or refusal leaves exactly one entry; an entry is bounded (digest,
// size, capped summary) and refusals are budgeted per operator; a deep body is a 400; the audit
// log hides administrator-only detail from other roles; the last administrator stays.
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { appendAudit } from '@registry/audit';
import { AUDIT_PAGE_MAX_BYTES } from '@registry/audit-search';
import * as ops from '@registry/operations';
import { buildFixture, type Fixture } from '@test/support/fixture';
import { auditRows, createTestOperator, operatorToken, type TestOperator } from '@test/support/operators';
import { rsaKeyPair, startTestRegistry, type TestRegistry } from '@test/support/registry';

let t: TestRegistry;
let f: Fixture;
let admin: TestOperator;
let manager: TestOperator;
let viewer: TestOperator;
const tokens = { admin: '', manager: '', viewer: '' };

beforeAll(async () => {
  t = await startTestRegistry({ setup: (r) => void (f = buildFixture(r)) });
  admin = createTestOperator(t.registry, 'administrator', 1);
  manager = createTestOperator(t.registry, 'manager', 2);
  viewer = createTestOperator(t.registry, 'viewer', 3);
  tokens.admin = await operatorToken(t, admin);
  tokens.manager = await operatorToken(t, manager);
  tokens.viewer = await operatorToken(t, viewer);
});
afterAll(() => t.close());

const post = (path: string, body: unknown, token: string) =>
  t.call(path, { method: 'POST', token, body: typeof body === 'string' ? body : JSON.stringify(body) });
const lastEntry = () => auditRows(t.registry).at(-1)!;
const targetsOf = (entry: { target_ids: string }) => JSON.parse(entry.target_ids) as string[];
const auditFor = async (query: string, token = tokens.admin) =>
  (await (await t.call(`/operator/v1/audit?${query}`, { token })).json()) as { entries: { detail: Record<string, unknown> }[] };

describe('targets and unknown fields', () => {
  it('refuses unknown fields by name, files nothing under ids they name, and names the created organization', async () => {
    const junk = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`note${i}Id`, `junk-${i}`]));
    const before = auditRows(t.registry).length;
    const refused = await post(
      '/operator/v1/organizations',
      { ...junk, victimId: f.orgB, fullName: 'Pushy Ltd', countryCode: 'KE' },
      tokens.manager,
    );
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toMatch(/unknown fields note0Id, note1Id/);
    expect(auditRows(t.registry).length).toBe(before + 1);
    expect(targetsOf(lastEntry())).toEqual([]);
    expect((await auditFor(`targetId=${f.orgB}&outcome=refused`)).entries).toHaveLength(0);

    const created = await post('/operator/v1/organizations', { fullName: 'Honest Ltd', countryCode: 'KE' }, tokens.manager);
    expect(created.status).toBe(201);
    const { organization } = (await created.json()) as { organization: { id: string } };
    expect((await auditFor(`targetId=${organization.id}`)).entries).toHaveLength(1);
  });

  it('refuses an unknown field nested in a known one', async () => {
    const res = await post('/operator/v1/transfers', { from: { kind: 'inventory', organizationId: f.orgA, extraId: 'x' } }, tokens.manager);
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toMatch(/from\.extraId/);
  });
});

describe('bounded entries', () => {
  it('keeps a digest, the size and a capped summary of a large refused body; a role refusal reads none', async () => {
    const body = JSON.stringify({ fullName: 'x'.repeat(900_000), countryCode: 'KE' });
    expect((await post('/operator/v1/organizations', body, tokens.manager)).status).toBe(400);
    const entry = lastEntry();
    expect(entry).toMatchObject({ operator_id: manager.id, outcome: 'refused' });
    expect(entry.detail.length).toBeLessThan(16_000);
    expect((JSON.parse(entry.detail) as { request: unknown }).request).toEqual({
      sha256: createHash('sha256').update(body).digest('hex'),
      bytes: body.length,
    });

    expect((await post('/operator/v1/organizations', body, tokens.viewer)).status).toBe(403);
    expect(lastEntry()).toMatchObject({ operator_id: viewer.id, outcome: 'refused' });
    expect(lastEntry().detail.length).toBeLessThan(1000);
  });

  it('answers a nested body 5,000 deep with 400 and one entry', async () => {
    const before = auditRows(t.registry).length;
    const res = await post('/operator/v1/organizations', `${'['.repeat(5000)}${']'.repeat(5000)}`, tokens.manager);
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toMatch(/nested more than 32 levels/);
    expect(auditRows(t.registry).length).toBe(before + 1);
  });

  it('refuses U+0000 (value, field name, query, path) and an unpaired surrogate with 400 naming where, one entry each', async () => {
    // PostgreSQL cannot keep U+0000 in text and libpq ends a parameter at it: stored, "Kenya \0 Growers"
    // became "Kenya ", and a NUL in an address was a 500 (found by operator-refusals.test.ts there).
    // UTF-8 cannot write an unpaired surrogate: both engines kept U+FFFD (PostgreSQL answered 500).
    const organizations = () => (t.registry.db.prepare('SELECT COUNT(*) AS n FROM organizations').get() as { n: number }).n;
    const countBefore = organizations();
    const before = auditRows(t.registry).length;
    const refusals: [Promise<Response>, RegExp][] = [
      [
        post('/operator/v1/organizations', { fullName: 'Kenya \u0000 Growers', countryCode: 'KE' }, tokens.manager),
        /^body\.fullName: must not contain the NUL character \(U\+0000\)$/,
      ],
      [
        post('/operator/v1/organizations', '{"fullName":"Ok Ltd","countryCode":"KE","physicalAddress":"\\u0000"}', tokens.manager),
        /^body\.physicalAddress: /,
      ],
      [
        post('/operator/v1/organizations', '{"fullName":"Ok Ltd","countryCode":"KE","a\\u0000b":1}', tokens.manager),
        /^body\.a\\u0000b: must not contain/,
      ],
      [t.call('/operator/v1/audit?action=x%00y', { token: tokens.manager }), /^query\.action: must not contain/],
      [
        post('/operator/v1/organizations', '{"fullName":"Ok Ltd","countryCode":"KE","city":"Nai\\ud800robi"}', tokens.manager),
        /^body\.city: must be well-formed Unicode text: it holds an unpaired surrogate/,
      ],
      [t.call(`/operator/v1/organizations/${f.orgA}%00`, { token: tokens.manager }), /^params\.\w+: must not contain/],
    ];
    for (const [answer, said] of refusals) {
      const res = await answer;
      expect(res.status).toBe(400);
      expect((await res.json()) as { message: string }).toMatchObject({ message: expect.stringMatching(said) as string });
    }
    expect(auditRows(t.registry).length).toBe(before + refusals.length);
    expect(organizations()).toBe(countBefore);
  });

  it('cuts an audit page by bytes as well as by count', async () => {
    for (let i = 0; i < 100; i++) {
      const big = { a: 'y'.repeat(5000) };
      appendAudit(t.registry, {
        operatorId: null,
        actor: 'test',
        action: 'test.big',
        targetIds: [],
        outcome: 'succeeded',
        detail: { input: big, result: big, error: big },
      });
    }
    const res = await t.call('/operator/v1/audit?action=test.big&limit=100', { token: tokens.viewer });
    const text = await res.text();
    const page = JSON.parse(text) as { entries: unknown[]; nextCursor: string | null };
    expect(page.entries.length).toBeLessThan(100);
    expect(page.nextCursor).not.toBeNull();
    expect(text.length).toBeLessThan(AUDIT_PAGE_MAX_BYTES * 1.2);
  });
});

describe('one entry per authenticated refusal, write attempt and token request', () => {
  it('413 over the cap, a viewer on an administrator list, a dry run, a token grant and a refused token', async () => {
    let before = auditRows(t.registry).length;
    const tooBig = await post('/operator/v1/organizations', JSON.stringify({ fullName: 'z'.repeat(1_100_000) }), tokens.manager);
    expect(tooBig.status).toBe(413);
    expect(auditRows(t.registry).length).toBe(before + 1);
    expect(JSON.parse(lastEntry().detail)).toMatchObject({ error: { status: 413 } });

    before = auditRows(t.registry).length;
    expect((await t.call('/operator/v1/operators', { token: tokens.viewer })).status).toBe(403);
    expect(lastEntry()).toMatchObject({ operator_id: viewer.id, action: 'read.operatorListOperators', outcome: 'refused' });
    expect((await t.call('/operator/v1/operators', { token: tokens.admin })).status).toBe(200);
    expect(auditRows(t.registry).length).toBe(before + 1);

    const preview = await t.call(
      `/operator/v1/previews/transfer?from=inventory:${f.orgA}&to=inventory:${f.orgB}&creditId=${f.creditId}&amount=1`,
      {
        token: tokens.manager,
      },
    );
    expect(lastEntry()).toMatchObject({
      operator_id: manager.id,
      action: 'preview.transfer',
      outcome: preview.ok ? 'succeeded' : 'refused',
    });

    before = auditRows(t.registry).length;
    await operatorToken(t, manager);
    expect(auditRows(t.registry).length).toBe(before + 1);
    expect(lastEntry()).toMatchObject({ operator_id: manager.id, action: 'operatorTokens.create', outcome: 'succeeded' });
    expect(lastEntry().detail).not.toMatch(/rdo_[0-9a-f]{20}/);

    const expired = await manager.jwt({ iatOffsetS: -4000 });
    const refused = await t.call('/operator/v1/tokens', { method: 'POST', token: expired, body: '{}' });
    expect(refused.status).toBe(401);
    expect(lastEntry()).toMatchObject({ operator_id: null, action: 'operatorTokens.create', outcome: 'refused' });
    expect(targetsOf(lastEntry())).toEqual([manager.id]);
  });

  it('an upload cut off mid-body', async () => {
    const before = auditRows(t.registry).length;
    const url = new URL(t.url);
    await new Promise<void>((resolve) => {
      const req = request({
        host: url.hostname,
        port: url.port,
        path: '/operator/v1/organizations',
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.manager}`, 'content-type': 'application/json', 'content-length': '5000' },
      });
      req.on('error', () => resolve());
      req.write('{"fullName": "cut', () => setImmediate(() => (req.destroy(), resolve())));
    });
    await vi.waitFor(() => expect(auditRows(t.registry).length).toBe(before + 1));
    expect(lastEntry()).toMatchObject({ operator_id: manager.id, action: 'organizations.create', outcome: 'refused' });
  });
});

describe('the audit log and administrator-only lists agree', () => {
  it("hides an operator creation's detail from a viewer and shows it to an administrator", async () => {
    const created = await post(
      '/operator/v1/operators',
      { name: 'Hidden Name', role: 'viewer', publicKeyPem: rsaKeyPair(5).publicKeyPem },
      tokens.admin,
    );
    expect([201, 409]).toContain(created.status);
    expect(JSON.stringify(await auditFor('action=operators.create', tokens.viewer))).not.toContain('Hidden Name');
    expect(JSON.stringify(await auditFor('action=operators.create', tokens.admin))).toContain('Hidden Name');
  });
});

describe('the last administrator', () => {
  it('cannot be disabled (409), while another administrator can be', async () => {
    const other = createTestOperator(t.registry, 'administrator', 4);
    const first = await post(`/operator/v1/operators/${other.id}/active`, { active: false }, tokens.admin);
    expect(first.status).toBe(200);
    const last = await post(`/operator/v1/operators/${admin.id}/active`, { active: false }, tokens.admin);
    expect(last.status).toBe(409);
    expect(JSON.stringify(await last.json())).toMatch(/last active administrator/);
    expect(ops.requireOperator(t.registry, admin.id).active).toBe(true);
  });
});

describe('the refusal budget', () => {
  it('answers 429 with a small entry once an operator has spent it, until the window passes', async () => {
    const r = await startTestRegistry({ refusedAttempts: { requests: 3, windowMs: 60_000 } });
    try {
      const v = createTestOperator(r.registry, 'viewer', 3);
      const token = await operatorToken(r, v);
      const big = JSON.stringify({ fullName: 'x'.repeat(500_000) });
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await r.call('/operator/v1/organizations', { method: 'POST', token, body: big })).status);
      expect(statuses).toEqual([403, 403, 403, 429, 429]);
      const rows = auditRows(r.registry).filter((e) => e.operator_id === v.id && e.action === 'organizations.create');
      expect(rows).toHaveLength(5);
      expect(rows.at(-1)!.detail.length).toBeLessThan(400);
      r.clock.advance(60_000);
      expect((await r.call('/operator/v1/organizations', { method: 'POST', token, body: big })).status).toBe(403);
    } finally {
      await r.close();
    }
  });
});
