// The back office's dry runs and credit trail over real HTTP: a preview of each ledger write answers
// what the write then does (credits, buffer share, balances before → after) while writing nothing
// but its one audit entry (every other table's rows unchanged); a cancellation keeps its reason; the trail
// of a credit lists every movement oldest first, page by page, each with the audit entry that made it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { previewRequestOf, type PreviewedWrite } from '@shared/registry/operator-previews';
import { endpoints, fillPath } from '@shared/registry/endpoints';
import { strict } from '@shared/registry/resources';
import { buildFixture, type Fixture } from '@test/support/fixture';
import { createTestOperator, operatorToken, type TestOperator } from '@test/support/operators';
import { ON_POSTGRES, startTestRegistry, type TestRegistry } from '@test/support/registry';

let t: TestRegistry;
let f: Fixture;
let manager: TestOperator;
const tokens = { manager: '', viewer: '' };

beforeAll(async () => {
  t = await startTestRegistry({ setup: (r) => void (f = buildFixture(r)) });
  manager = createTestOperator(t.registry, 'manager', 2);
  tokens.manager = await operatorToken(t, manager);
  tokens.viewer = await operatorToken(t, createTestOperator(t.registry, 'viewer', 3));
});
afterAll(() => t.close());

function rowCounts(): Record<string, number> {
  const tables = t.registry.db.raw
    .prepare(
      ON_POSTGRES
        ? "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
        : "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
    )
    .all() as { name: string }[];
  expect(tables.map((r) => r.name)).toContain('movements');
  // a dry run is a write attempt: it leaves its audit entry, and changes nothing else; the transparency
  // log grows with each audit entry and its timer's checkpoints (its own tests check it)
  return Object.fromEntries(
    tables
      .filter(({ name }) => name !== 'audit_log' && name !== 'audit_targets' && !name.startsWith('tlog_'))
      .map(({ name }) => [name, (t.registry.db.raw.prepare(`SELECT COUNT(*) AS n FROM ${name}`).get() as { n: number }).n]),
  );
}

const auditCount = () => (t.registry.db.raw.prepare('SELECT COUNT(*) AS n FROM audit_log').get() as { n: number }).n;

const balancesTable = () => t.registry.db.raw.prepare('SELECT account_id, credit_id, amount FROM balances ORDER BY 1, 2').all();

async function preview(write: PreviewedWrite, body: Record<string, unknown>, token = tokens.manager) {
  const { params, query } = previewRequestOf(write, body);
  const res = await t.call(`${fillPath(endpoints.operatorPreview.path, params)}?${new URLSearchParams(query)}`, { token });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function write(write: PreviewedWrite, body: unknown, key: string) {
  const res = await t.call(endpoints[write].path, {
    method: 'POST',
    token: tokens.manager,
    body: JSON.stringify(body),
    headers: { 'Idempotency-Key': key },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

type Trail = ReturnType<ReturnType<(typeof endpoints)['operatorCreditTrail']['response']>['parse']>;
type Preview = ReturnType<ReturnType<(typeof endpoints)['operatorPreview']['response']>['parse']>;

/** Runs the preview (nothing may change), then the write; the balances the preview promised are the ones the write leaves. */
async function previewThenWrite(kind: PreviewedWrite, body: Record<string, unknown>): Promise<Preview> {
  const counts = rowCounts();
  const entries = auditCount();
  const balances = balancesTable();
  const answer = await preview(kind, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const parsed = endpoints.operatorPreview.response(strict).parse(answer.body);
  expect(rowCounts()).toEqual(counts);
  expect(auditCount()).toBe(entries + 1);
  expect(balancesTable()).toEqual(balances);
  const done = await write(kind, body, `${kind}-${JSON.stringify(body).length}`);
  expect(done.status, JSON.stringify(done.body)).toBe(201);
  for (const b of parsed.balances) {
    const accountId =
      b.account.id ??
      (
        t.registry.db.raw
          .prepare(
            'SELECT id FROM accounts WHERE kind = ? AND organization_id IS NOT DISTINCT FROM ? AND wallet_address IS NOT DISTINCT FROM ?',
          )
          .get(b.account.kind, b.account.organizationId, b.account.walletAddress) as { id: string }
      ).id;
    const after = t.registry.db.raw
      .prepare('SELECT amount FROM balances WHERE account_id = ? AND credit_id = ?')
      .get(accountId, b.creditId) as { amount: number } | undefined;
    expect(after?.amount ?? 0, `${b.account.kind} ${b.serialization}`).toBe(b.afterGrams);
  }
  return parsed;
}

describe('previews of ledger writes', () => {
  it('previews an issuance of a new vintage: the new serialization, the buffer share, balances 0 → after', async () => {
    const body = {
      projectId: f.projectId,
      vintage: '2024',
      amount: 200.5,
      bufferBasisPoints: 1500,
      monitoringPeriodStart: '2024-01-01',
      monitoringPeriodEnd: '2024-12-31',
      verificationBodyId: f.validatorId,
    };
    const p = await previewThenWrite('operatorIssueCredits', body);
    expect(p.operation).toBe('issuance');
    expect(p.amountGrams).toBe(200_500_000);
    expect(p.toBufferGrams).toBe(30_075_000);
    expect(p.bufferBasisPoints).toBe(1500);
    expect(p.credits).toHaveLength(1);
    expect(p.credits[0]).toMatchObject({ vintage: '2024', type: 'exPost', isNew: true });
    expect(p.credits[0]!.serialization).toMatch(/2024$/);
    const inventory = p.balances.find((b) => b.account.kind === 'inventory')!;
    expect(inventory).toMatchObject({ beforeGrams: 0, afterGrams: 170_425_000 });
    expect(inventory.account).toMatchObject({ organizationId: f.orgA, organizationName: 'Alpha Forests Ltd' });
    expect(p.balances.find((b) => b.account.kind === 'buffer')).toMatchObject({ beforeGrams: 0, afterGrams: 30_075_000 });
  });

  it('previews an issuance of an existing vintage with the registry default buffer share', async () => {
    const p = await previewThenWrite('operatorIssueCredits', {
      projectId: f.projectId,
      vintage: '2022',
      amount: 10,
      monitoringPeriodStart: '2022-01-01',
      monitoringPeriodEnd: '2022-12-31',
      verificationBodyId: f.validatorId,
    });
    expect(p.credits[0]).toMatchObject({ creditId: f.creditId, isNew: false });
    expect(p.bufferBasisPoints).toBe(1000);
    expect(p.balances.find((b) => b.account.kind === 'inventory')).toMatchObject({ beforeGrams: 400_000_000, afterGrams: 409_000_000 });
  });

  it('previews a deposit, a withdrawal, a transfer and a cancellation with their balances before → after', async () => {
    const deposit = await previewThenWrite('operatorDeposit', { organizationId: f.orgA, creditId: f.creditId, amount: 9 });
    expect(deposit.balances.map((b) => [b.account.kind, b.beforeGrams, b.afterGrams])).toEqual([
      ['inventory', 409_000_000, 400_000_000],
      ['warehouse', 500_000_000, 509_000_000],
    ]);
    const withdrawal = await previewThenWrite('operatorWithdraw', { organizationId: f.orgA, creditId: f.creditId, amount: 1 });
    expect(withdrawal.balances.map((b) => [b.account.kind, b.afterGrams - b.beforeGrams])).toEqual([
      ['warehouse', -1_000_000],
      ['inventory', 1_000_000],
    ]);
    const wallet = `0x${'b'.repeat(40)}`;
    const transfer = await previewThenWrite('operatorTransfer', {
      from: { kind: 'inventory', organizationId: f.orgA },
      to: { kind: 'wallet', address: wallet },
      creditId: f.creditId,
      amount: 2.25,
    });
    // the wallet's account does not exist yet: the preview names it without an id
    expect(transfer.balances[1]).toMatchObject({
      account: { id: null, kind: 'wallet', walletAddress: wallet },
      beforeGrams: 0,
      afterGrams: 2_250_000,
    });
    const cancellation = await previewThenWrite('operatorCancel', {
      from: { kind: 'inventory', organizationId: f.orgA },
      creditId: f.creditId,
      amount: 0.5,
      reason: 'Double counted in the 2022 report',
    });
    expect(cancellation.movements).toEqual([expect.objectContaining({ kind: 'cancel', to: null, amountGrams: 500_000 })]);
    expect(cancellation.balances).toEqual([expect.objectContaining({ beforeGrams: 398_750_000, afterGrams: 398_250_000 })]);
  });

  it("refuses what the write would refuse, with the operation's message, and changes nothing", async () => {
    const counts = rowCounts();
    const entries = auditCount();
    const over = await preview('operatorTransfer', {
      from: { kind: 'adjustment' },
      to: { kind: 'registry' },
      creditId: f.creditId,
      amount: 1,
    });
    expect(over.status).toBe(409);
    expect(JSON.stringify(over.body)).toMatch(/not enough/i);
    const missingReason = await preview('operatorCancel', {
      from: { kind: 'inventory', organizationId: f.orgA },
      creditId: f.creditId,
      amount: 1,
    });
    expect(missingReason.status).toBe(400);
    expect(JSON.stringify(missingReason.body)).toMatch(/reason/);
    const res = await t.call(`/operator/v1/previews/transfer?from=nowhere&to=buffer&creditId=${encodeURIComponent(f.creditId)}&amount=1`, {
      token: tokens.manager,
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/from: must be inventory:<organization id>/);
    const notProponent = await preview('operatorIssueCredits', {
      projectId: f.projectId,
      vintage: '2022',
      amount: 1,
      monitoringPeriodStart: '2022-01-01',
      monitoringPeriodEnd: '2022-12-31',
      verificationBodyId: f.validatorId,
      receivingOrganizationId: f.orgB,
    });
    expect(notProponent.status).toBe(409);
    expect(JSON.stringify(notProponent.body)).toMatch(/Beta Buyers AG is not a proponent of project/);
    const unverified = await preview('operatorDeposit', { organizationId: 'nobody', creditId: f.creditId, amount: 1 });
    expect(unverified.status).toBe(404);
    expect((await t.call('/operator/v1/previews/deposit?amount=1', { token: tokens.viewer })).status).toBe(403);
    expect(rowCounts()).toEqual(counts);
    expect(auditCount()).toBe(entries + 6); // one refused entry per dry run
  });
});

describe('the credit trail', () => {
  it('lists every movement from issuance to now, page by page, with its audit entry and a cancellation its reason', async () => {
    const path = `${endpoints.operatorCreditTrail.path}?serialization=${encodeURIComponent(f.serialization)}&limit=3`;
    const movements: Trail['movements'] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await t.call(`${path}${cursor ? `&cursor=${cursor}` : ''}`, { token: tokens.viewer });
      expect(res.status).toBe(200);
      const page = endpoints.operatorCreditTrail.response(strict).parse(await res.json());
      expect(page.credit).toMatchObject({
        id: f.creditId,
        projectId: f.projectId,
        projectName: 'Kilimanjaro Reforestation',
        organizationId: f.orgA,
      });
      movements.push(...page.movements);
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBeGreaterThan(1);
    const ids = movements.map((m) => m.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(movements.map((m) => m.kind)).toEqual([
      'issue',
      'issue',
      'deposit',
      'issue',
      'issue',
      'deposit',
      'withdraw',
      'transfer',
      'cancel',
    ]);
    // the fixture's own movements were made without an operator write; the HTTP ones name theirs
    expect(movements[0]!.audit).toBeNull();
    const made = movements.slice(3);
    for (const m of made)
      expect(m.audit).toMatchObject({ operatorId: manager.id, operatorName: expect.stringMatching(/^manager/), outcome: 'succeeded' });
    expect(made.map((m) => m.audit?.action)).toEqual([
      'credits.issue',
      'credits.issue',
      'warehouse.deposit',
      'warehouse.withdraw',
      'credits.transfer',
      'credits.cancel',
    ]);
    expect(movements.at(-1)!.reason).toBe('Double counted in the 2022 report');
    expect(movements.at(-2)).toMatchObject({ to: { kind: 'wallet', walletAddress: `0x${'b'.repeat(40)}` } });
  });

  it('answers 404 for an unknown serialization and 400 for a forged cursor', async () => {
    expect((await t.call(`${endpoints.operatorCreditTrail.path}?serialization=NOPE`, { token: tokens.viewer })).status).toBe(404);
    const forged = await t.call(`${endpoints.operatorCreditTrail.path}?creditId=${encodeURIComponent(f.creditId)}&cursor=abc`, {
      token: tokens.viewer,
    });
    expect(forged.status).toBe(400);
  });
});
