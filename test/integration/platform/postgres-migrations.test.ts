// The registry's PostgreSQL migrations, each step on a real database (REGISTRY_TEST_POSTGRES_URL):
// applied one by one, each checked for what it adds, the ledger's and the audit log's guarantees
// enforced by the database, and a newer schema refused untouched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseTooNewError } from '@platform/db/migrate';
import { PostgresDatabase } from '@platform/db/postgres';
import { migratePostgres, postgresSchemaVersion } from '@platform/db/postgres-migrate';
import { registryPostgresMigrations } from '@registry/migrations/postgres';
import { registryMigrations } from '@registry/migrations';
import { missingGuards } from '@registry/append-only-guards';
import { encodeLeaf, leafHashHex } from '@registry/transparency/leaf';
import { createTestDatabase, NO_POSTGRES_MESSAGE, POSTGRES_URL, type TestDatabase } from '@test/support/postgres';
import { MINIMAL_LEDGER_OWNERS_SQL } from '@test/support/minimal-ledger';

if (!POSTGRES_URL) console.warn(NO_POSTGRES_MESSAGE);

describe.skipIf(!POSTGRES_URL)('registry migrations on PostgreSQL', () => {
  let database: TestDatabase;
  let db: PostgresDatabase<unknown>;
  const upTo = (n: number) => migratePostgres(db, registryPostgresMigrations.slice(0, n));
  const fails = (sql: string, values: unknown[] = []) => {
    try {
      db.transaction(() => db.query(sql, values));
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error(`expected to fail: ${sql}`);
  };

  beforeAll(() => {
    database = createTestDatabase('registry_migrations');
    db = new PostgresDatabase<unknown>(database.url);
  });
  afterAll(() => {
    db.close();
    database.drop();
  });

  it('numbers the same steps as SQLite', () => {
    expect(registryPostgresMigrations.map((m) => [m.version, m.name])).toEqual(registryMigrations.map((m) => [m.version, m.name]));
  });

  it('0001: the tables, code-point order, and the ledger enforced by the database', () => {
    expect(upTo(1)).toEqual({ from: 0, to: 1 });
    expect(postgresSchemaVersion(db)).toBe(1);
    db.exec(`
      ${MINIMAL_LEDGER_OWNERS_SQL}
    `);
    // the project number and contract checks of SQLite's GLOBs
    expect(fails(`UPDATE projects SET num = '1a'`)).toMatch(/check constraint/);
    const move = (kind: string, from: string | null, to: string | null, amount: number) =>
      db.query('INSERT INTO movements (credit_id, kind, from_account, to_account, amount, created_at) VALUES ($1, $2, $3, $4, $5, 1)', [
        'c',
        kind,
        from,
        to,
        amount,
      ]);
    db.transaction(() => {
      move('issue', null, 'a1', 1000);
      move('deposit', 'a1', 'a2', 400);
    });
    const balances = () => db.query('SELECT account_id, amount FROM balances ORDER BY account_id');
    expect(balances()).toEqual([
      { account_id: 'a1', amount: 600 },
      { account_id: 'a2', amount: 400 },
    ]);
    // an overdraft aborts the whole change; the ledger cannot be edited, deleted or truncated
    expect(
      fails('INSERT INTO movements (credit_id, kind, from_account, amount, created_at) VALUES ($1, $2, $3, $4, 1)', [
        'c',
        'retire',
        'a2',
        401,
      ]),
    ).toBe('insufficient balance');
    expect(fails('UPDATE movements SET amount = 1')).toBe('the ledger is append-only');
    expect(fails('DELETE FROM movements')).toBe('the ledger is append-only');
    expect(fails('TRUNCATE movements CASCADE')).toBe('the ledger is append-only');
    expect(fails('UPDATE balances SET amount = -1')).toMatch(/check constraint/);
    expect(balances()).toEqual([
      { account_id: 'a1', amount: 600 },
      { account_id: 'a2', amount: 400 },
    ]);
    // SQLite's conveniences the registry's SQL relies on, and its binary (code point) text order
    expect(db.query(`SELECT value FROM json_each($1) ORDER BY value`, ['["b","a"]'])).toEqual([{ value: 'a' }, { value: 'b' }]);
    expect(db.query(`SELECT +full_name AS n FROM organizations`)).toEqual([{ n: 'Org' }]);
    db.exec(`INSERT INTO sectors VALUES ('a', 'x'), ('B', 'x'), ('É', 'x')`);
    expect(db.query(`SELECT id FROM sectors ORDER BY id`).map((r) => r.id)).toEqual(['B', 'a', 's', 'É']);
  });

  it('0002: the project-list indexes', () => {
    expect(upTo(2)).toEqual({ from: 1, to: 2 });
    const indexes = db.query(`SELECT indexname FROM pg_indexes WHERE tablename = 'projects'`).map((r) => r.indexname);
    expect(indexes).toEqual(expect.arrayContaining(['projects_by_number', 'projects_by_organization_status']));
  });

  it('0003: the holds index carries the amount', () => {
    upTo(3);
    const [index] = db.query(`SELECT indexdef FROM pg_indexes WHERE indexname = 'reservations_holding'`);
    expect(index!.indexdef).toMatch(/INCLUDE \(amount\) WHERE/);
  });

  it('0004: a finalize signature is single-use', () => {
    upTo(4);
    db.exec(`INSERT INTO retirements (id, credit_id, amount, created_at, source, organization_id, movement_id)
      SELECT 'r', 'c', 1, 1, 'inventory', 'o', min(id) FROM movements`);
    const digest = 'f'.repeat(64);
    db.query('INSERT INTO used_signatures VALUES ($1, $2, 1)', [digest, 'r']);
    expect(fails('INSERT INTO used_signatures VALUES ($1, $2, 2)', [digest, 'r'])).toMatch(/duplicate key/);
  });

  it('0005: operators, and an append-only audit log', () => {
    upTo(5);
    const [row] = db.query(`INSERT INTO audit_log (id, at, actor, action, outcome) VALUES ('e', 1, 'cli', 'x', 'succeeded') RETURNING seq`);
    db.query('INSERT INTO audit_targets (seq, target_id) VALUES ($1, $2)', [row!.seq, 'o']);
    expect(fails('UPDATE audit_log SET action = $1', ['y'])).toBe('the audit log is append-only');
    expect(fails('DELETE FROM audit_targets')).toBe('the audit log is append-only');
    expect(fails('TRUNCATE audit_log CASCADE')).toBe('the audit log is append-only');
    expect(postgresSchemaVersion(db)).toBe(5);
    expect(upTo(5)).toEqual({ from: 5, to: 5 });
  });

  it('0006: the changes feed starts from what exists and advances inside every write', () => {
    expect(upTo(6)).toEqual({ from: 5, to: 6 });
    const changes = () => db.query(`SELECT kind, key, seq FROM feed_changes WHERE key IN ('o', 'p') ORDER BY kind`);
    expect(changes()).toEqual([
      { kind: 'organization', key: 'o', seq: 0 },
      { kind: 'project', key: 'p', seq: 0 },
      { kind: 'warehouse', key: 'o', seq: 0 },
    ]);
    // renaming the organization changes its record, its warehouse and its project's answers
    db.transaction(() => db.query(`UPDATE organizations SET full_name = 'Org 2' WHERE id = 'o'`));
    const seq = Number(db.query('SELECT seq FROM feed_sequence')[0]!.seq);
    expect(seq).toBeGreaterThan(0);
    expect(changes().map((c) => [c.kind, Number(c.seq) > 0 && Number(c.seq) <= seq])).toEqual([
      ['organization', true],
      ['project', true],
      ['warehouse', true],
    ]);
    // a failed write moves nothing
    fails(`UPDATE organizations SET is_public = 2 WHERE id = 'o'`);
    expect(Number(db.query('SELECT seq FROM feed_sequence')[0]!.seq)).toBe(seq);
  });

  it('0007: cancellation reasons and movement audit links, append-only', () => {
    expect(upTo(7)).toEqual({ from: 6, to: 7 });
    db.transaction(() => {
      const [m] = db.query(
        `INSERT INTO movements (credit_id, kind, from_account, amount, created_at) VALUES ('c', 'cancel', 'a1', 1, 2) RETURNING id`,
      );
      db.query('INSERT INTO cancellation_reasons (movement_id, reason) VALUES ($1, $2)', [m!.id, 'double counted']);
      db.query('INSERT INTO movement_audit (movement_id, audit_seq) SELECT $1, min(seq) FROM audit_log', [m!.id]);
    });
    expect(fails(`INSERT INTO cancellation_reasons (movement_id, reason) SELECT min(id), '  ' FROM movements`)).toMatch(/check constraint/);
    expect(fails(`UPDATE cancellation_reasons SET reason = 'x'`)).toBe('the ledger is append-only');
    expect(fails('DELETE FROM movement_audit')).toBe('the audit log is append-only');
    expect(db.query(`SELECT indexname FROM pg_indexes WHERE indexname = 'movements_by_credit_in_order'`)).toHaveLength(1);
  });

  it('0008: a status change keeps its comment; earlier events have an empty one', () => {
    db.query(
      `INSERT INTO project_events (id, project_id, type, created_at, project_status, previous_project_status)
       SELECT 'before', id, 'status_change', 1, 'submitted', 'draft' FROM projects LIMIT 1`,
    );
    expect(upTo(8)).toEqual({ from: 7, to: 8 });
    expect(db.query(`SELECT comment FROM project_events WHERE id = 'before'`)).toEqual([{ comment: '' }]);
    db.query(
      `INSERT INTO project_events (id, project_id, type, created_at, project_status, previous_project_status, comment)
       SELECT 'after', id, 'status_change', 2, 'draft', 'submitted', 'Needs a map' FROM projects LIMIT 1`,
    );
    expect(db.query(`SELECT comment FROM project_events WHERE id = 'after'`)).toEqual([{ comment: 'Needs a map' }]);
  });

  it('0009: rate-limit buckets, one per key, unlogged', () => {
    expect(upTo(9)).toEqual({ from: 8, to: 9 });
    expect(db.query(`SELECT relpersistence FROM pg_class WHERE relname = 'rate_limit_buckets'`)).toEqual([{ relpersistence: 'u' }]);
    db.query(`INSERT INTO rate_limit_buckets (key, tokens, updated_at) VALUES ('app:a', 9.5, 1)`);
    expect(fails(`INSERT INTO rate_limit_buckets (key, tokens, updated_at) VALUES ('app:a', 1, 2)`)).toMatch(/duplicate key/);
  });

  it('0010: changes numbered by transaction: writers never queue on the feed, readers never pass an open one', () => {
    const counter = Number(db.query('SELECT seq FROM feed_sequence')[0]!.seq);
    expect(upTo(10)).toEqual({ from: 9, to: 10 });
    const writer = new PostgresDatabase<unknown>(database.url);
    const reader = new PostgresDatabase<unknown>(database.url);
    const elsewhere = new PostgresDatabase<unknown>(POSTGRES_URL); // another database of the cluster
    try {
      const seqOf = (on: PostgresDatabase<unknown>, kind: string, key: string) =>
        Number(on.query('SELECT seq FROM feed_changes WHERE kind = $1 AND key = $2', [kind, key])[0]!.seq);
      const finalBelow = () => Number(reader.query('SELECT final_below FROM feed_bounds')[0]!.final_below);
      const finalChanges = () =>
        reader
          .query('SELECT kind, key FROM feed_changes WHERE seq > $1 AND seq < $2 ORDER BY seq, kind, key', [counter, finalBelow()])
          .map((r) => `${String(r.kind)}:${String(r.key)}`);
      // under 0006 the second writer would wait for the first's lock on the counter row: fail instead
      writer.exec("SET lock_timeout = '2s'");
      // an older transaction in another database does not hold this feed back
      elsewhere.exec('BEGIN');
      elsewhere.query('SELECT pg_current_xact_id()');
      // A takes the lower number (its transaction started writing first) and stays open
      db.exec('BEGIN');
      db.query(`INSERT INTO organizations (id, full_name, type, created_at, updated_at) VALUES ('o9', 'Org 9', 'proponent', 1, 1)`);
      const a = seqOf(db, 'organization', 'o9');
      // B writes and commits meanwhile, without waiting for A
      writer.exec('BEGIN');
      writer.query(`UPDATE projects SET description = 'changed' WHERE id = 'p'`);
      const b = seqOf(writer, 'project', 'p');
      writer.exec('COMMIT');
      expect(a).toBeGreaterThan(counter); // above every number handed out before: old cursors stay valid
      expect(b).toBeGreaterThan(a);
      // B's change is committed but not final: a reader stops below A's number, so it cannot pass A
      expect(finalBelow()).toBe(a);
      expect(finalChanges()).toEqual([]);
      expect(Number(reader.query('SELECT last_number FROM feed_bounds')[0]!.last_number)).toBeGreaterThanOrEqual(b);
      db.exec('COMMIT');
      // once A commits, both are read, in number order
      expect(finalBelow()).toBeGreaterThan(b);
      expect(finalChanges()).toEqual(['organization:o9', 'warehouse:o9', 'project:p']);
    } finally {
      elsewhere.exec('ROLLBACK');
      for (const c of [writer, reader, elsewhere]) c.close();
    }
  });

  it('0011: the movements-by-credit index carries the amount', () => {
    expect(upTo(11)).toEqual({ from: 10, to: 11 });
    const [index] = db.query(`SELECT indexdef FROM pg_indexes WHERE indexname = 'movements_by_credit'`);
    expect(index!.indexdef).toMatch(/\(credit_id, kind\) INCLUDE \(amount\)$/);
  });

  it('0012: every append-only guard is present; a dropped or disabled one is found', () => {
    expect(upTo(12)).toEqual({ from: 11, to: 12 });
    expect(missingGuards(db)).toEqual([]);
    db.exec('ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only');
    expect(missingGuards(db)).toEqual(['audit_log_append_only']);
    db.exec('ALTER TABLE audit_log ENABLE TRIGGER audit_log_append_only');
  });

  it('0014: the transparency log holds the rows already there, in time order, and refuses edits', () => {
    expect(upTo(14)).toEqual({ from: 12, to: 14 });
    const leaves = db.query('SELECT idx, kind, ref, data, hash FROM tlog_leaves ORDER BY idx');
    const movements = db.query('SELECT * FROM movements ORDER BY id');
    const entries = db.query('SELECT * FROM audit_log ORDER BY seq');
    expect(leaves).toHaveLength(movements.length + entries.length);
    expect(leaves.map((l) => Number(l.idx))).toEqual([...leaves.keys()]);
    expect(Number(db.query('SELECT size FROM tlog_head')[0]!.size)).toBe(leaves.length);
    // the same canonical encoding as on SQLite: every stored column, integers as numbers
    const first = leaves.find((l) => l.kind === 'movement')!;
    const row = movements.find((m) => String(m.id) === first.ref)!;
    expect(first.data).toBe(encodeLeaf('movement', row));
    expect(first.hash).toBe(leafHashHex(first.data as string));
    expect((JSON.parse(first.data as string) as { row: { amount: unknown } }).row.amount).toEqual(expect.any(Number));
    expect(fails('UPDATE tlog_leaves SET data = $1', ['x'])).toBe('the transparency log is append-only');
    expect(fails('DELETE FROM tlog_leaves')).toBe('the transparency log is append-only');
    expect(fails('TRUNCATE tlog_leaves CASCADE')).toBe('the transparency log is append-only');
    expect(fails('UPDATE tlog_head SET size = 0')).toBe('the transparency log is append-only');
    db.transaction(() => db.query(`INSERT INTO tlog_checkpoints (size, root, at, note) VALUES (0, 'r', 1, 'n')`));
    expect(fails('DELETE FROM tlog_checkpoints')).toBe('the transparency log is append-only');
  });

  it('0015: the leaves keep their hash only; the rows still hash to it', () => {
    const before = db.query('SELECT idx, kind, ref, data, hash FROM tlog_leaves ORDER BY idx');
    expect(upTo(15)).toEqual({ from: 14, to: 15 });
    const columns = db.query(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'tlog_leaves' ORDER BY ordinal_position`,
    );
    expect(columns.map((c) => c.column_name)).toEqual(['idx', 'kind', 'ref', 'hash']);
    expect(db.query('SELECT idx, kind, ref, hash FROM tlog_leaves ORDER BY idx')).toEqual(before.map(({ data: _bytes, ...leaf }) => leaf));
    const movement = before.find((l) => l.kind === 'movement')!;
    const row = db.query('SELECT * FROM movements WHERE id = $1', [Number(movement.ref)])[0]!;
    expect(leafHashHex(encodeLeaf('movement', row))).toBe(movement.hash);
    expect(fails('UPDATE tlog_leaves SET hash = $1', ['0'.repeat(64)])).toBe('the transparency log is append-only');
  });

  it('refuses a database newer than the app, and leaves it as it was', () => {
    const latest = registryPostgresMigrations.length;
    db.exec(`UPDATE schema_version SET version = ${latest + 1}`);
    expect(() => upTo(latest)).toThrow(DatabaseTooNewError);
    expect(() => upTo(latest)).toThrow(`schema version ${latest + 1}, newer than this app supports (${latest})`);
    expect(postgresSchemaVersion(db)).toBe(latest + 1);
    db.exec(`UPDATE schema_version SET version = ${latest}`);
  });
});
