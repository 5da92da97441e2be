// Migration 0001 creates the registry schema on an empty database (the version before it), and the
// ledger rules it installs hold: balances follow movements, overdrafts abort, the ledger is append-only.
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '@platform/db/migrate';
import { migration0001 } from '@registry/migrations/0001-initial';

let db: BetterSqlite3.Database;
afterEach(() => db?.close());

function seedMinimal() {
  db.exec(`
    INSERT INTO organizations (id, full_name, type, created_at, updated_at) VALUES ('o1', 'Org', 'projectProponent', 0, 0);
    INSERT INTO sectors VALUES ('s', 'S'); INSERT INTO methodologies VALUES ('m', 'M'); INSERT INTO project_types VALUES ('t', 'T', '');
    INSERT INTO projects (id, num, full_name, description, short_description, registry, status, start_date, crediting_period_start_date,
      sector_id, methodology_id, type_id, organization_id, contract_address, created_at, updated_at)
      VALUES ('p1', '1', 'P', '', '', 'R', 'validated', 0, 0, 's', 'm', 't', 'o1', '0x${'a'.repeat(40)}', 0, 0);
    INSERT INTO credits (id, project_id, token_address, token_id, type, vintage, serialization, created_at)
      VALUES ('c1', 'p1', '0x${'a'.repeat(40)}', 1, 'exPost', '2022', 'R-KEN-1-1-1-P-0-2022', 0);
    INSERT INTO accounts (id, kind, organization_id, created_at) VALUES ('inv', 'inventory', 'o1', 0), ('wh', 'warehouse', 'o1', 0);
  `);
}

const move = (kind: string, from: string | null, to: string | null, amount: number) =>
  db
    .prepare('INSERT INTO movements (credit_id, kind, from_account, to_account, amount, created_at) VALUES (?, ?, ?, ?, ?, 0)')
    .run('c1', kind, from, to, amount);
const balance = (account: string) =>
  (db.prepare('SELECT amount FROM balances WHERE account_id = ? AND credit_id = ?').get(account, 'c1') as { amount: number } | undefined)
    ?.amount ?? 0;

describe('migration 0001 (initial registry schema)', () => {
  it('migrates an empty (version 0) database to version 1', () => {
    db = new BetterSqlite3(':memory:');
    expect(schemaVersion(db)).toBe(0);
    migrate(db, [migration0001]);
    expect(schemaVersion(db)).toBe(1);
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name);
    for (const t of [
      'organizations',
      'projects',
      'credits',
      'movements',
      'balances',
      'retirements',
      'apps',
      'installations',
      'access_tokens',
      'reservations',
      'transactions',
    ]) {
      expect(tables).toContain(t);
    }
  });

  it('derives balances from movements and aborts an overdraft without a trace', () => {
    db = new BetterSqlite3(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, [migration0001]);
    seedMinimal();
    move('issue', null, 'inv', 1_000_000);
    move('deposit', 'inv', 'wh', 400_000);
    expect([balance('inv'), balance('wh')]).toEqual([600_000, 400_000]);
    expect(() => move('deposit', 'inv', 'wh', 600_001)).toThrow(/insufficient balance/);
    expect([balance('inv'), balance('wh')]).toEqual([600_000, 400_000]);
    expect((db.prepare('SELECT COUNT(*) AS n FROM movements').get() as { n: number }).n).toBe(2);
    move('retire', 'wh', null, 400_000);
    expect(balance('wh')).toBe(0);
  });

  it('keeps the ledger append-only and movements well-formed', () => {
    db = new BetterSqlite3(':memory:');
    migrate(db, [migration0001]);
    seedMinimal();
    move('issue', null, 'inv', 10);
    expect(() => db.prepare('UPDATE movements SET amount = 5').run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM movements').run()).toThrow(/append-only/);
    expect(() => move('issue', 'inv', 'wh', 1)).toThrow(/CHECK/);
    expect(() => move('transfer', 'inv', 'inv', 1)).toThrow(/CHECK/);
    expect(() => move('retire', 'inv', null, 0)).toThrow(/CHECK/);
  });
});
