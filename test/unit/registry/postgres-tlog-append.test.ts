// The transparency log's leaves are written at the end of the transaction that wrote their rows
// (platform/db/commit-batches.ts; on PostgreSQL in the COMMIT's own round trip, values inlined).
// Whatever the transaction does (a savepoint rolled back, a rollback, a re-run after a serialization
// failure, ids that need quoting), the log holds exactly the committed rows, in the order they were
// written, with no gap, and the database check (`admin verify-log`) agrees. Runs on SQLite in the
// unit project and on PostgreSQL in the postgres project (and through PgBouncer).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@platform/clock';
import type { PostgresDatabase } from '@platform/db/postgres';
import { appendAudit } from '@registry/audit';
import type { RegistryContext } from '@registry/context';
import { appendMovement, findAccountId } from '@registry/ledger';
import { openPostgresRegistry, type OpenedRegistry } from '@registry/open';
import * as ops from '@registry/operations';
import type { RegistryTables } from '@registry/schema';
import { logSize } from '@registry/transparency/tree';
import { verifyLogDatabase } from '@registry/transparency/verify-database';
import { makeDataDir, ON_POSTGRES, openTestRegistryOn } from '@test/support/registry';
import { stockWarehouse } from '@test/support/stocked-warehouse';

describe("a transaction's transparency-log leaves", () => {
  let data: ReturnType<typeof makeDataDir>;
  const clock = new ManualClock(Date.parse('2025-01-01T00:00:00Z'));
  let r: OpenedRegistry;
  const w = { credit: '', inventory: '', warehouse: '' };

  beforeAll(() => {
    data = makeDataDir('tlog-append-');
    r = openTestRegistryOn(data, clock);
    const vvb = ops.createOrganization(r, { fullName: 'VVB', type: 'validationVerificationBody', countryCode: 'GB', verified: true });
    const org = ops.createOrganization(r, { fullName: 'Seller', countryCode: 'KE', verified: true }).id;
    [w.credit] = stockWarehouse(r, {
      organizationId: org,
      verificationBodyId: vvb.id,
      projectName: 'Forest',
      vintages: ['2022'],
      issue: 100,
      deposit: 40,
    }) as [string];
    w.inventory = findAccountId(r, { kind: 'inventory', organizationId: org })!;
    w.warehouse = findAccountId(r, { kind: 'warehouse', organizationId: org })!;
  });
  afterAll(() => {
    r?.close();
    data?.remove();
  });

  /** Every leaf as [kind, ref], in index order. */
  const logged = (ctx: RegistryContext = r) =>
    ctx.db.all(ctx.db.q.selectFrom('tlog_leaves').select(['idx', 'kind', 'ref']).orderBy('idx')).map((l) => [l.kind, l.ref]);
  // PostgreSQL: the head row; SQLite: the largest leaf index + 1 (migration 0018)
  const headSize = () => logSize(r);
  const entry = (action: string, ctx: RegistryContext = r) =>
    appendAudit(ctx, { operatorId: null, actor: 'test', action, targetIds: [], outcome: 'succeeded', detail: {} });
  const deposit = (ctx: RegistryContext = r) =>
    String(appendMovement(ctx, { creditId: w.credit, kind: 'deposit', from: w.inventory, to: w.warehouse, amount: 1 }));
  const expectSound = () => {
    expect(verifyLogDatabase(r).problems).toEqual([]);
    expect(headSize()).toBe(logged().length);
  };

  it('are appended in the order their rows were written', () => {
    const before = headSize();
    const written = r.db.transaction(() => [
      ['movement', deposit()],
      ['audit', entry('one')],
      ['movement', deposit()],
    ]);
    expect(logged().slice(before)).toEqual(written);
    expectSound();
  });

  it('go with a savepoint that rolls back, and with a transaction that does', () => {
    const before = headSize();
    const kept = r.db.transaction(() => {
      const first = entry('kept');
      expect(() =>
        r.db.transaction(() => {
          entry('undone');
          deposit();
          throw new Error('inner');
        }),
      ).toThrow('inner');
      return [first, entry('kept too')];
    });
    expect(() =>
      r.db.transaction(() => {
        deposit();
        entry('rolled back');
        throw new Error('outer');
      }),
    ).toThrow('outer');
    expect(logged().slice(before)).toEqual(kept.map((id) => ['audit', id]));
    expectSound();
  });

  it('carry an id that needs quoting exactly', () => {
    const id = `it's a "quote" \\ back'slash'); DROP TABLE tlog_leaves; --`;
    r.db.transaction(() => entry('quoted', { ...r, newId: () => id }));
    expect(logged().at(-1)).toEqual(['audit', id]);
    expectSound();
  });

  it('outside any transaction, are appended at once', () => {
    const id = entry('alone');
    expect(logged().at(-1)).toEqual(['audit', id]);
    expectSound();
  });

  describe.skipIf(!ON_POSTGRES)('run again after a serialization failure (PostgreSQL, two connections)', () => {
    let other: ReturnType<typeof openPostgresRegistry>;
    beforeAll(() => {
      other = openPostgresRegistry({ databaseUrl: (r.db as unknown as PostgresDatabase<RegistryTables>).url, clock });
    });
    afterAll(() => other?.close());

    it('inside the transaction: only the last run is logged', () => {
      const before = headSize();
      let attempts = 0;
      let meanwhile = '';
      const mine = r.db.transaction(() => {
        attempts += 1;
        const first = entry(`attempt ${attempts}`);
        // the other connection moves the same balance and commits: this run's own move then fails
        if (attempts === 1) meanwhile = other.db.transaction(() => deposit(other));
        return [
          ['audit', first],
          ['movement', deposit()],
        ];
      });
      expect(attempts).toBe(2);
      expect(logged().slice(before)).toEqual([['movement', meanwhile], ...mine]);
      expectSound();
    });

    it('at its end (the log head moved meanwhile): only the last run is logged', () => {
      const before = headSize();
      let attempts = 0;
      let meanwhile = '';
      const mine = r.db.transaction(() => {
        attempts += 1;
        const id = entry(`attempt ${attempts}`);
        if (attempts === 1) meanwhile = other.db.transaction(() => entry('meanwhile', other));
        return id;
      });
      expect(attempts).toBe(2);
      expect(logged().slice(before)).toEqual([
        ['audit', meanwhile],
        ['audit', mine],
      ]);
      expectSound();
    });
  });
});
