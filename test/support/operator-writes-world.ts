// The world of the operator-writes tests (operator-writes.test.ts, operator-edits.test.ts): one test
// registry with the fixture, a manager and a viewer with their tokens, and the checks those tests
// repeat: a write sent with or without an Idempotency-Key, every table's row count (equal before and
// after: nothing changed), an audited edit and its replay, refused edits, and the books reconciling.
import { afterAll, beforeAll, expect } from 'vitest';
import { buildFixture, type Fixture } from '@test/support/fixture';
import { auditRows, createTestOperator, operatorToken, type TestOperator } from '@test/support/operators';
import { startTestRegistry, type TestRegistry } from '@test/support/registry';

export interface OperatorWritesWorld {
  t: TestRegistry;
  f: Fixture;
  manager: TestOperator;
  viewer: TestOperator;
  /** Replaced by a test that moves the clock past their lifetime; the helpers below read them here. */
  tokens: { manager: string; viewer: string };
}

/**
 * Starts a world before the calling file's tests and closes it after them (its fields are set from
 * the first test on), with the checks bound to it.
 */
export function useOperatorWritesWorld() {
  const w = { tokens: { manager: '', viewer: '' } } as OperatorWritesWorld;
  beforeAll(async () => {
    // The random sequences send hundreds of refused requests (bad bodies, reused keys, a viewer's
    // writes) within a minute on a fast machine; the refused-attempts budget (60 a minute, its own
    // tests in auth) would then answer 429 and hide what these tests check. A budget they cannot spend:
    w.t = await startTestRegistry({ refusedAttempts: { requests: 100_000, windowMs: 60_000 }, setup: (r) => void (w.f = buildFixture(r)) });
    w.manager = createTestOperator(w.t.registry, 'manager', 2);
    w.viewer = createTestOperator(w.t.registry, 'viewer', 3);
    w.tokens.manager = await operatorToken(w.t, w.manager);
    w.tokens.viewer = await operatorToken(w.t, w.viewer);
  });
  afterAll(() => w.t.close());
  return { world: w, ...checksOn(w) };
}

/** The checks the operator-writes tests repeat, on one world. */
function checksOn(w: OperatorWritesWorld) {
  function post(path: string, body: unknown, token: string, key?: string, method = 'POST') {
    return w.t.call(path, {
      method,
      token,
      body: typeof body === 'string' ? body : JSON.stringify(body),
      ...(key !== undefined ? { headers: { 'Idempotency-Key': key } } : {}),
    });
  }

  /** Every table's row count: equal before and after means nothing changed. */
  function rowCounts(): Record<string, number> {
    const tables = w.t.registry.db.raw
      .prepare(
        (w.t.registry.db as { engine: string }).engine === 'postgres'
          ? "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'"
          : "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
      )
      .all() as { name: string }[];
    // the transparency log grows with each audit entry and its timer's checkpoints: its own tests check it
    return Object.fromEntries(
      tables
        .filter(({ name }) => !name.startsWith('tlog_'))
        .map(({ name }) => [name, (w.t.registry.db.raw.prepare(`SELECT COUNT(*) AS n FROM ${name}`).get() as { n: number }).n]),
    );
  }

  /**
   * A manager's PATCH with its key: 200 naming every field it changed, one succeeded audit entry
   * naming the target; the same key again replays it and changes nothing.
   */
  async function expectAuditedEdit(
    collection: string,
    id: string,
    edit: Record<string, unknown>,
    key: string,
    action: string,
    parse: (json: unknown) => { id: string; changed: string[] },
  ) {
    const entries = auditRows(w.t.registry).length;
    const res = await post(`${collection}/${id}`, edit, w.tokens.manager, key, 'PATCH');
    expect(res.status).toBe(200);
    const answer = parse(await res.json());
    expect(answer.id).toBe(id);
    expect([...answer.changed].sort()).toEqual(Object.keys(edit).sort());
    expect(auditRows(w.t.registry).length).toBe(entries + 1);
    const entry = auditRows(w.t.registry).at(-1)!;
    expect(entry).toMatchObject({ operator_id: w.manager.id, action, outcome: 'succeeded' });
    expect(JSON.parse(entry.target_ids)).toContain(id);

    const counts = rowCounts();
    const again = await post(`${collection}/${id}`, edit, w.tokens.manager, key, 'PATCH');
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(rowCounts()).toEqual(counts);
  }

  /**
   * Each PATCH body is refused with its status and an answer naming what is wrong, changing nothing
   * but one refused audit entry; then an unknown id is 404 and a viewer's edit 403.
   */
  async function expectRefusedEdits(collection: string, id: string, action: string, cases: [unknown, number, string][]) {
    for (const [body, status, says] of cases) {
      const before = rowCounts();
      const res = await post(`${collection}/${id}`, body, w.tokens.manager, undefined, 'PATCH');
      expect(res.status).toBe(status);
      expect(JSON.stringify(await res.json())).toContain(says);
      expect({ ...rowCounts(), audit_log: 0, audit_targets: 0 }).toEqual({ ...before, audit_log: 0, audit_targets: 0 });
      expect(auditRows(w.t.registry).at(-1)).toMatchObject({ action, outcome: 'refused' });
    }
    expect((await post(`${collection}/nope`, { fullName: 'X' }, w.tokens.manager, undefined, 'PATCH')).status).toBe(404);
    expect((await post(`${collection}/${id}`, { fullName: 'X' }, w.tokens.viewer, undefined, 'PATCH')).status).toBe(403);
  }

  /** The books: balances equal the ledger's sums, and each credit's issuance equals what is held, retired and cancelled. */
  function expectLedgerReconciles() {
    const db = w.t.registry.db.raw;
    const drift = db
      .prepare(
        `SELECT b.account_id, b.credit_id, b.amount,
           COALESCE((SELECT SUM(amount) FROM movements WHERE to_account = b.account_id AND credit_id = b.credit_id), 0)
         - COALESCE((SELECT SUM(amount) FROM movements WHERE from_account = b.account_id AND credit_id = b.credit_id), 0) AS ledger
         FROM balances b`,
      )
      .all() as { amount: number; ledger: number }[];
    for (const row of drift) expect(row.amount).toBe(row.ledger);
    const credits = db
      .prepare(
        `SELECT c.id,
           (SELECT COALESCE(SUM(amount), 0) FROM movements WHERE credit_id = c.id AND kind = 'issue') AS issued,
           (SELECT COALESCE(SUM(amount), 0) FROM balances WHERE credit_id = c.id) AS held,
           (SELECT COALESCE(SUM(amount), 0) FROM movements WHERE credit_id = c.id AND kind IN ('retire', 'cancel')) AS gone,
           (SELECT COALESCE(SUM(amount), 0) FROM credit_events WHERE credit_id = c.id AND type = 'issuance') AS recorded
         FROM credits c`,
      )
      .all() as { issued: number; held: number; gone: number; recorded: number }[];
    for (const c of credits) {
      expect(c.held + c.gone).toBe(c.issued);
      expect(c.recorded).toBe(c.issued);
    }
  }

  return { post, rowCounts, expectAuditedEdit, expectRefusedEdits, expectLedgerReconciles };
}
