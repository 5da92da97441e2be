// Edges of the operator interface an attacker found (issue 32): an id that exists is a 409, an id
// given twice in one body a 400 naming both places (every list alike); estimated mitigations are
// bounded; a transfer to the account it comes from is 400 (a wallet in two letter cases too); an
// overdraft is 409 however little the account holds; amounts stay exact (a number JSON would round
// is refused quoting it as sent, a movement is at most a billion tonnes, one account holds at most
// nine billion over all its credits); and random bodies and query values of every shape, depth,
// size and alphabet are never a 500 nor answered in zod's own words.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointIds, endpoints, fillPath, type EndpointDefinition } from '@shared/registry/endpoints';
import { formatTonnes } from '@shared/registry/amounts';
import { buildFixture, type Fixture } from '@test/support/fixture';
import { createTestOperator, operatorToken } from '@test/support/operators';
import { createTestApp, startTestRegistry, type TestRegistry } from '@test/support/registry';

let t: TestRegistry;
let f: Fixture;
let token = '';

beforeAll(async () => {
  // the property test below sends many refused bodies: a budget that does not get in its way
  t = await startTestRegistry({ setup: (r) => void (f = buildFixture(r)), refusedAttempts: { requests: 1_000_000, windowMs: 60_000 } });
  token = await operatorToken(t, createTestOperator(t.registry, 'administrator', 1));
});
afterAll(() => t.close());

const send = (path: string, body: unknown, method = 'POST') =>
  t.call(path, { method, token, body: typeof body === 'string' ? body : JSON.stringify(body) });
const messageOf = async (res: Response) => JSON.stringify(await res.json());
/** The refusal's messages as sent, one a line (quotes unescaped). */
const linesOf = async (res: Response) => [((await res.json()) as { message: string | string[] }).message].flat().join('\n');

const draft = () => ({
  fullName: 'Duplicate Mangroves',
  startDate: '2021-01-01',
  creditingPeriodStartDate: '2021-06-01',
  countryCode: 'KE',
  sector: { id: 'forestry', title: 'Forestry' },
  methodology: { id: 'icr-ar-001', title: 'Afforestation' },
  type: { id: 'removal', title: 'Removal' },
  organizationId: f.orgA,
});

const issuance = (amount: number | string) =>
  `{"projectId":"${f.projectId}","vintage":"2023","amount":${amount},"monitoringPeriodStart":"2023-01-01","monitoringPeriodEnd":"2023-12-31","verificationBodyId":"${f.validatorId}","bufferBasisPoints":0}`;

describe('duplicate ids the caller chooses', () => {
  it("an installation id that exists is 409 naming that installation; another kind's id is no conflict", async () => {
    const app = createTestApp(t.registry, { name: 'Edge app' });
    const install = (id: string, organizationId: string) =>
      send('/operator/v1/installations', { id, appId: app.id, organizationId, permissions: { organization_warehouse: 'VIEW' } });
    // ids are unique within their kind: an installation may take its app's id
    expect((await install(app.id, f.orgA)).status).toBe(201);
    const again = await install(app.id, f.orgB);
    expect(again.status).toBe(409);
    expect(await linesOf(again)).toBe(`Installation ${app.id} already exists: it installs app ${app.id} on organization ${f.orgA}`);
  });

  it('an id given twice in one body is 400 naming the field and the id, in every list of a project, and stores nothing', async () => {
    const projects = () => (t.registry.db.prepare('SELECT COUNT(*) AS n FROM projects').get() as { n: number }).n;
    const before = projects();
    const doc = (id: string, name: string) => ({ id, uri: `https://example.org/${name}.pdf`, type: 'other', name });
    const docId = 'b1b2c3d4-0000-4000-8000-000000000002';
    const cases: [Record<string, unknown>, string][] = [
      [{ proponentIds: [f.orgB, f.orgB] }, `body.proponentIds.1: "${f.orgB}" is also the id at proponentIds[0]`],
      [
        { validatorIds: [f.validatorId, f.orgB, f.validatorId] },
        `body.validatorIds.2: "${f.validatorId}" is also the id at validatorIds[0]`,
      ],
      [
        {
          otherBenefits: [
            { id: 7, title: 'Water', checked: true },
            { id: 7, title: 'Soil', checked: false },
          ],
        },
        'body.otherBenefits.1.id: 7 is also the id at otherBenefits[0]',
      ],
      // documents answered 409 here before: one rule now, whichever list repeats the id
      [{ documentation: [doc(docId, 'a'), doc(docId, 'b')] }, `body.documentation.1.id: "${docId}" is also the id at documentation[0]`],
      [{ documentation: [doc(docId, 'a')], kmlFile: doc(docId, 'map') }, `body.kmlFile.id: "${docId}" is also the id at documentation[0]`],
    ];
    for (const [fields, said] of cases) {
      const res = await send('/operator/v1/projects', { ...draft(), ...fields });
      expect(res.status, said).toBe(400);
      expect(await linesOf(res), said).toContain(said);
      // the edit of a draft takes the same rule
      const edit = await send(`/operator/v1/projects/${f.draftProjectId}`, fields, 'PATCH');
      expect(edit.status, said).toBe(400);
      expect(await linesOf(edit), said).toContain(said);
    }
    expect(projects()).toBe(before);
  });
});

describe('estimated annual mitigations', () => {
  it('takes at most 100 years, each null or tonnes as decimal text exact to the gram, and refuses the rest naming the item', async () => {
    const refused: [unknown, string][] = [
      [Array.from({ length: 101 }, () => '1'), 'body.estimatedAnnualMitigations: must list at most 100 years'],
      [['1200', '1e3'], 'body.estimatedAnnualMitigations.1: must be tonnes written in digits'],
      [['12.1234567'], 'body.estimatedAnnualMitigations.0: must be tonnes'],
      [['1000000000.000001'], 'body.estimatedAnnualMitigations.0: must be tonnes'],
      [[''], 'body.estimatedAnnualMitigations.0: must be tonnes'],
      [[1200], 'body.estimatedAnnualMitigations.0: must be text, not a number'],
    ];
    for (const [estimates, said] of refused) {
      const res = await send('/operator/v1/projects', { ...draft(), estimatedAnnualMitigations: estimates });
      expect(res.status, said).toBe(400);
      expect(await messageOf(res), said).toContain(said);
    }
    const exact = ['1000000000', null, '0.000001', '999999999.999999', ...Array.from({ length: 96 }, (_, i) => String(i))];
    const created = await send('/operator/v1/projects', { ...draft(), estimatedAnnualMitigations: exact });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const read = (await (await t.call(`/operator/v1/projects/${id}`, { token })).json()) as {
      details: { estimatedAnnualMitigations: unknown[] };
    };
    expect(read.details.estimatedAnnualMitigations).toEqual(exact);
  });
});

describe('a transfer to the account it comes from', () => {
  it('is 400 also when one wallet address is written in two letter cases, and moves nothing', async () => {
    const wallet = '0x' + 'ab'.repeat(20);
    const funded = await send('/operator/v1/transfers', {
      from: { kind: 'inventory', organizationId: f.orgA },
      to: { kind: 'wallet', address: wallet },
      creditId: f.creditId,
      amount: 1,
    });
    expect(funded.status).toBe(201);
    const movements = () => (t.registry.db.prepare('SELECT COUNT(*) AS n FROM movements').get() as { n: number }).n;
    const before = movements();
    const res = await send('/operator/v1/transfers', {
      from: { kind: 'wallet', address: wallet.toUpperCase().replace('0X', '0x') },
      to: { kind: 'wallet', address: wallet },
      creditId: f.creditId,
      amount: 1,
    });
    expect(res.status).toBe(400);
    expect(await messageOf(res)).toMatch(/from and to must be different accounts/);
    expect(movements()).toBe(before);
  });
});

describe('an overdraft', () => {
  it('is 409 also when the account holds less over all its credits than the amount, and moves nothing', async () => {
    const created = await send('/operator/v1/organizations', { fullName: 'Overdraft Holdings', countryCode: 'KE' });
    expect(created.status).toBe(201);
    const organizationId = ((await created.json()) as { organization: { id: string } }).organization.id;
    const fund = await send('/operator/v1/transfers', {
      from: { kind: 'inventory', organizationId: f.orgA },
      to: { kind: 'inventory', organizationId },
      creditId: f.creditId,
      amount: 1,
    });
    expect(fund.status).toBe(201);
    const movements = () => (t.registry.db.prepare('SELECT COUNT(*) AS n FROM movements').get() as { n: number }).n;
    const before = movements();
    // the inventory holds 1 t in all: 2 t is more than its total, not only than this credit's balance
    const retire = { organizationId, creditId: f.creditId, amount: 2, beneficiary: 'Acme', reason: 'Offsetting' };
    const res = await send('/operator/v1/retirements', retire);
    expect(res.status).toBe(409);
    expect(await messageOf(res)).toMatch(/Not enough credits/);
    const deposit = await send('/operator/v1/warehouse/deposits', { organizationId, creditId: f.creditId, amount: 2 });
    expect(deposit.status).toBe(409);
    expect(movements()).toBe(before);
  });
});

describe('refusals of issuance and transfers', () => {
  it('name the organization, project and credit in words, with the ids only in brackets at the end', async () => {
    const issue = (extra: Record<string, unknown>, projectId = f.projectId) =>
      send('/operator/v1/issuances', { ...JSON.parse(issuance(1)), projectId, ...extra });
    const cases: [Response, string][] = [
      [
        await issue({ receivingOrganizationId: f.orgB }),
        `receivingOrganizationId: Beta Buyers AG is not a proponent of project 1 · Kilimanjaro Reforestation; credits are issued only to its proponents (organization ${f.orgB})`,
      ],
      [
        await issue({}, f.draftProjectId),
        'projectId: project 2 · Draft Mangroves is draft; credits are issued only for validated or registered projects',
      ],
      [
        await send('/operator/v1/transfers', {
          from: { kind: 'inventory', organizationId: f.orgB },
          to: { kind: 'adjustment' },
          creditId: f.creditId,
          amount: 2,
        }),
        `amount: not enough credits of ${f.serialization} in the inventory of Beta Buyers AG, which holds 0 t of them (organization ${f.orgB})`,
      ],
      [
        await send('/operator/v1/warehouse/withdrawals', { organizationId: f.orgA, creditId: f.creditId, amount: 100_000 }),
        `amount: only 500 t of ${f.serialization} is free in the warehouse of Alpha Forests Ltd (the rest is reserved or absent) (organization ${f.orgA})`,
      ],
    ];
    for (const [res, said] of cases) {
      expect(res.status, said).toBe(409);
      expect(await linesOf(res)).toBe(said);
    }
  });
});

describe('amounts that stay exact', () => {
  it('quotes a number JSON would round exactly as sent', async () => {
    const res = await send('/operator/v1/issuances', issuance('99999999999999999'));
    expect(res.status).toBe(400);
    const message = await messageOf(res);
    expect(message).toContain('99999999999999999');
    expect(message).not.toContain('100000000000000000');
  });

  it('refuses a movement over a billion tonnes (400) and an account over nine billion over all its credits (409)', async () => {
    expect((await send('/operator/v1/issuances', issuance(1_000_000_001))).status).toBe(400);
    // the project's organization already holds the fixture's credits: the cap counts them too
    const heldGrams = () =>
      (
        t.registry.db
          .prepare(
            `SELECT COALESCE(SUM(b.amount), 0) AS n FROM balances b JOIN accounts a ON a.id = b.account_id
             WHERE a.kind = 'inventory' AND a.organization_id = (SELECT organization_id FROM projects WHERE id = ?)`,
          )
          .get(f.projectId) as { n: number }
      ).n;
    const fit = Math.floor((9e15 - heldGrams()) / 1e15);
    const statuses: number[] = [];
    for (let i = 0; i <= fit; i++) statuses.push((await send('/operator/v1/issuances', issuance(1_000_000_000))).status);
    expect(statuses).toEqual([...Array<number>(fit).fill(201), 409]);
    // up to the exact gram: what is left fits, then not a gram more, of this credit or another
    expect((await send('/operator/v1/issuances', issuance(formatTonnes(9e15 - heldGrams())))).status).toBe(201);
    expect(heldGrams()).toBe(9e15);
    const movements = () => (t.registry.db.prepare('SELECT COUNT(*) AS n FROM movements').get() as { n: number }).n;
    const before = movements();
    const other = await send('/operator/v1/issuances', issuance(0.000001).replace('"vintage":"2023"', '"vintage":"2024"'));
    expect(other.status).toBe(409);
    const message = await messageOf(other);
    expect(message).toContain('holds 9,000,000,000 t over all its credits; 0.000001 t more of');
    expect(message).toContain('would pass 9,000,000,000 t, the most one account may hold over all its credits together');
    expect(movements()).toBe(before);
  });
});

describe('paths', () => {
  it('answers a trailing slash 404, on operator and seed paths alike, and a wrong method 405 with Allow', async () => {
    for (const path of ['/operator/v1/me/', '/operator/v1/organizations/', '/projects/']) {
      const res = await t.call(path, { token });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('allow'), path).toBeNull();
    }
    const wrong = await t.call('/operator/v1/me', { method: 'DELETE', token });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toContain('GET');
  });
});

const operatorEndpoints = endpointIds
  .map((id) => [id, endpoints[id] as EndpointDefinition] as const)
  .filter(([, e]) => e.path.startsWith('/operator/v1/') && e.body !== undefined);

/** JSON values of any shape: nested up to 40 deep, unicode strings, extreme numbers. */
const anyJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 40 },
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.string({ unit: 'grapheme', maxLength: 12 }), tie('value'), { maxKeys: 6 }),
  ),
})).value;

describe('never a 500', () => {
  it('answers every random body on every operator write with a status below 500', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...operatorEndpoints),
        fc.oneof(
          anyJson.map((v) => JSON.stringify(v) ?? 'null'),
          fc.integer({ min: 1, max: 6000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
          fc.string({ unit: 'binary', maxLength: 200 }),
        ),
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }),
        async ([, e], body, param) => {
          const path = fillPath(e.path, Object.fromEntries([...e.path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1]!, param])));
          const res = await send(path, body, e.method);
          const text = await res.text();
          expect(res.status, `${e.method} ${path} ${body.slice(0, 200)}`).toBeLessThan(500);
          expect(text, `${e.method} ${path} ${body.slice(0, 200)}`).not.toMatch(ZOD_WORDING);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('answers random query values on every operator read in words naming the field, never a 500', async () => {
    const missing = await t.call('/operator/v1/previews/transfer?creditId=x&amount=1', { token });
    expect(missing.status).toBe(400);
    expect(await messageOf(missing)).toContain('query.from: is required');
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...operatorReads),
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }),
        fc.array(fc.tuple(fc.nat(), fc.oneof(fc.string({ unit: 'grapheme', maxLength: 12 }), fc.integer().map(String))), { maxLength: 4 }),
        async (e, param, pairs) => {
          const values = Object.fromEntries([...e.path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1]!, param]));
          if (e.queryByParam) values[e.queryByParam.param] = Object.keys(e.queryByParam.queries)[param.length % 5]!;
          const keys = queryKeysOf(e, values);
          const query = new URLSearchParams(pairs.map(([k, v]) => [keys[k % keys.length] ?? 'x', v]));
          const path = `${fillPath(e.path, values)}?${query}`;
          const res = await t.call(path, { token });
          const text = await res.text();
          expect(res.status, `GET ${path}`).toBeLessThan(500);
          expect(text, `GET ${path}`).not.toMatch(ZOD_WORDING);
        },
      ),
      { numRuns: 120 },
    );
  });
});

/** zod's own English, which no answer may show: it talks about zod's types, not the field (issue 32). */
const ZOD_WORDING =
  /Invalid input|Invalid option|Invalid (string|number|UUID|ISO|discriminator|key|value|element)|Too (big|small)|Unrecognized key|expected [a-z]+, received|nonoptional/;

const operatorReads = endpointIds
  .map((id) => endpoints[id] as EndpointDefinition)
  .filter((e) => e.path.startsWith('/operator/v1/') && e.method === 'GET' && !e.path.includes('token'));

/** The query keys an endpoint knows (for these path values), so the drawn pairs reach its checks. */
function queryKeysOf(e: EndpointDefinition, values: Record<string, string>): string[] {
  const schema = e.queryByParam?.queries[values[e.queryByParam.param]!] ?? e.query;
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  return shape ? Object.keys(shape) : [];
}
