// Cache migration 0005: the back office's offline tables are added to an existing cache (its data
// kept), with their keys: one answer per request, one audit entry per id and per place in the
// order, one ledger movement per id.
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '@platform/db/migrate';
import { migration0001 } from '@desk/cache/migrations/0001-resources';
import { migration0002 } from '@desk/cache/migrations/0002-search';
import { migration0003 } from '@desk/cache/migrations/0003-fast-search';
import { migration0004 } from '@desk/cache/migrations/0004-inventory-credits';
import { migration0005 } from '@desk/cache/migrations/0005-back-office';

describe('cache migration 0005 (back office)', () => {
  it('adds the back-office tables to a version-4 cache, keeping its data, with their keys', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(db, [migration0001, migration0002, migration0003, migration0004]);
    db.prepare("INSERT INTO organizations (id, full_name, installed, json, fetched_at) VALUES ('o', 'Org', 1, '{}', 1)").run();
    migrate(db, [migration0001, migration0002, migration0003, migration0004, migration0005]);
    expect(db.prepare('SELECT full_name FROM organizations').pluck().get()).toBe('Org');

    const answer = db.prepare("INSERT INTO bo_answers (key, endpoint, call_json, json, fetched_at) VALUES ('k', 'e', '{}', '{}', 1)");
    answer.run();
    expect(() => answer.run()).toThrow(/UNIQUE/);

    const audit = db.prepare(
      "INSERT INTO bo_audit (id, ord, at_ms, operator_id, action, outcome, json) VALUES (?, ?, 1, NULL, 'a', 'succeeded', '{}')",
    );
    audit.run('a1', 1);
    expect(() => audit.run('a1', 2)).toThrow(/UNIQUE/);
    expect(() => audit.run('a2', 1)).toThrow(/UNIQUE/);

    db.prepare("INSERT INTO bo_credits (id, serialization, balances_hash, json, fetched_at) VALUES ('c', 'S', 'h', '{}', 1)").run();
    const movement = db.prepare(
      "INSERT INTO bo_ledger (id, credit_id, at, kind, from_account_id, to_account_id, amount_grams, reference) VALUES (7, 'c', 't', 'issue', NULL, 'acc', 5, NULL)",
    );
    movement.run();
    expect(() => movement.run()).toThrow(/UNIQUE|PRIMARY/);
    db.close();
  });
});
