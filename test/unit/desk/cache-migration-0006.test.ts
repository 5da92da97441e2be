// Cache migration 0006: the history verification's tables are added to an existing cache (its data
// kept): one state row, one kept movement per id and per leaf, evidence rows that accumulate.
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '@platform/db/migrate';
import { cacheMigrations } from '@desk/cache/migrations';

describe('cache migration 0006 (history verification)', () => {
  it('adds the verification tables to a version-5 cache, keeping its data, with their keys', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(db, cacheMigrations.slice(0, 5));
    db.prepare("INSERT INTO organizations (id, full_name, installed, json, fetched_at) VALUES ('o', 'Org', 1, '{}', 1)").run();
    migrate(db, cacheMigrations.slice(0, 6));
    expect(db.prepare('SELECT full_name FROM organizations').pluck().get()).toBe('Org');

    const state = db.prepare("INSERT INTO hv_state (one, outcome, checked_at) VALUES (?, 'verified', 1)");
    state.run(1);
    expect(() => state.run(1)).toThrow(/UNIQUE|PRIMARY/);
    expect(() => state.run(2)).toThrow(/CHECK/);
    expect(() => db.prepare("UPDATE hv_state SET outcome = 'maybe'").run()).toThrow(/CHECK/);

    const movement = db.prepare(
      "INSERT INTO hv_movements (id, leaf, credit_id, kind, from_account, to_account, amount, created_at, reference) VALUES (?, ?, 'c', 'retire', 'a', NULL, 5, 1, 'r')",
    );
    movement.run(1, 10);
    expect(() => movement.run(1, 11)).toThrow(/UNIQUE|PRIMARY/);
    expect(() => movement.run(2, 10)).toThrow(/UNIQUE/);

    const evidence = db.prepare("INSERT INTO hv_evidence (found_at, kind, message) VALUES (1, 'fork', 'two roots')");
    evidence.run();
    evidence.run();
    expect(db.prepare('SELECT COUNT(*) FROM hv_evidence').pluck().get()).toBe(2);
    db.close();
  });
});
