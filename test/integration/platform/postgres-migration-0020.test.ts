// Migration 0020 on PostgreSQL, on a real database a version-19 registry wrote (the fixture, audit
// entries and one signed checkpoint): a transaction's leaves are appended by one call of
// tlog_append, the head's guard runs after its update and only when it shrank (DELETE has a guard
// of its own), and the leaves keep their hashes as bytes.
// The log migrates without a leaf lost or hashed again (the database check passes on it), every
// record is still found, the head still only grows, and a record is still logged once only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@platform/clock';
import { PostgresDatabase } from '@platform/db/postgres';
import { migratePostgres } from '@platform/db/postgres-migrate';
import { missingGuards } from '@registry/append-only-guards';
import { appendAudit } from '@registry/audit';
import { defaultNewId, type RegistryContext } from '@registry/context';
import { registryPostgresMigrations } from '@registry/migrations/postgres';
import { openPostgresRegistry, type OpenedPostgresRegistry } from '@registry/open';
import type { RegistryTables } from '@registry/schema';
import { signCheckpoint } from '@registry/transparency/checkpoints';
import { findLeafIndex } from '@registry/transparency/proofs';
import { logSize } from '@registry/transparency/tree';
import { verifyLogDatabase } from '@registry/transparency/verify-database';
import { buildFixture } from '@test/support/fixture';
import { createTestDatabase, NO_POSTGRES_MESSAGE, POSTGRES_URL, type TestDatabase } from '@test/support/postgres';

if (!POSTGRES_URL) console.warn(NO_POSTGRES_MESSAGE);

const NOW = Date.parse('2024-01-01T12:00:00Z');
const urls = { apiBaseUrl: 'http://127.0.0.1', publicBaseUrl: 'https://r.example' };

type Leaf = { idx: number; kind: 'movement' | 'audit'; ref: string; hash: string };
/** Every leaf, its hash in hex: stored as hex before 0020, as its 32 bytes after. */
const leavesOf = (db: PostgresDatabase<unknown>, hash = 'hash') =>
  db.query(`SELECT idx, kind, ref, ${hash} AS hash FROM tlog_leaves ORDER BY idx`) as Leaf[];
const HEX = "encode(hash, 'hex')";

describe.skipIf(!POSTGRES_URL)('migration 0020 on PostgreSQL: the append in one call, hashes as bytes', () => {
  let database: TestDatabase;
  let registry: OpenedPostgresRegistry;
  let before: Leaf[];
  const raw = () => registry.db as PostgresDatabase<unknown>;
  const count = (sql: string) => Number(raw().query(sql)[0]!.n);
  const fails = (fn: () => unknown) => {
    try {
      registry.db.transaction(fn);
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error('expected to fail');
  };
  const entries = (n: number) =>
    registry.db.transaction(() =>
      Array.from({ length: n }, (_, i) =>
        appendAudit(registry, { operatorId: null, actor: 'cli:test', action: 'x', targetIds: [], outcome: 'succeeded', detail: { i } }),
      ),
    );
  const lastAuditId = () => String(raw().query('SELECT id FROM audit_log ORDER BY seq DESC LIMIT 1')[0]!.id);

  beforeAll(() => {
    database = createTestDatabase('registry_0020');
    const db = new PostgresDatabase<RegistryTables>(database.url);
    try {
      migratePostgres(db, registryPostgresMigrations.slice(0, 19));
      const ctx: RegistryContext = { db, clock: new ManualClock(NOW), newId: defaultNewId, urls };
      buildFixture(ctx as Parameters<typeof buildFixture>[0]);
      // audit entries too, appended as a version-19 registry did (one statement with the COMMIT)
      db.transaction(() => {
        for (let i = 0; i < 5; i++)
          appendAudit(ctx, { operatorId: null, actor: 'cli:test', action: 'old', targetIds: [], outcome: 'succeeded', detail: { i } });
      });
      signCheckpoint(ctx);
      before = leavesOf(db as PostgresDatabase<unknown>);
    } finally {
      db.close();
    }
    registry = openPostgresRegistry({ databaseUrl: database.url, clock: new ManualClock(NOW + 10_000), urls });
  });
  afterAll(() => {
    registry?.close();
    database?.drop();
  });

  it('keeps every leaf as it was, and the database check passes', () => {
    expect(registry.migration).toEqual({ from: 19, to: registryPostgresMigrations.length });
    expect(new Set(before.map((l) => l.kind))).toEqual(new Set(['movement', 'audit']));
    // the same hashes, as bytes now: nothing hashed again
    expect(leavesOf(raw(), HEX)).toEqual(before);
    expect(
      raw().query(`SELECT data_type FROM information_schema.columns WHERE table_name = 'tlog_leaves' AND column_name = 'hash'`),
    ).toEqual([{ data_type: 'bytea' }]);
    expect(missingGuards(registry.db)).toEqual([]);
    expect(verifyLogDatabase(registry)).toEqual({ leaves: before.length, checkpoints: 1, problems: [] });
    for (const leaf of [before[0]!, before.find((l) => l.kind === 'movement')!, before.at(-1)!])
      expect(findLeafIndex(registry, leaf.kind, leaf.ref)).toBe(Number(leaf.idx));
  });

  it('appends through tlog_append, in order; a new record is found, and checked at the next checkpoint', () => {
    const ids = entries(3);
    expect(
      leavesOf(raw())
        .slice(before.length)
        .map((l) => [l.idx, l.kind, l.ref]),
    ).toEqual(ids.map((id, i) => [before.length + i, 'audit', id]));
    expect(logSize(registry)).toBe(before.length + 3);
    expect(findLeafIndex(registry, 'audit', lastAuditId())).toBe(before.length + 2);
    expect(findLeafIndex(registry, 'audit', 'no-such-entry')).toBeUndefined();
    expect(signCheckpoint(registry).size).toBe(before.length + 3);
    expect(findLeafIndex(registry, 'audit', lastAuditId())).toBe(before.length + 2);
    expect(verifyLogDatabase(registry)).toEqual({ leaves: before.length + 3, checkpoints: 2, problems: [] });
  });

  it('still refuses a head that shrinks or goes, and a write whose log has no head fails whole', () => {
    expect(fails(() => raw().query('UPDATE tlog_head SET size = size - 1'))).toBe('the transparency log is append-only');
    expect(fails(() => raw().query('DELETE FROM tlog_head'))).toBe('the transparency log is append-only');
    const size = logSize(registry);
    const audits = count('SELECT COUNT(*) AS n FROM audit_log');
    // the guard disabled and the head deleted inside the write's own transaction (rolled back with it)
    const failure = fails(() => {
      raw().exec('ALTER TABLE tlog_head DISABLE TRIGGER tlog_head_no_delete');
      // the head's DELETE guard is one the registry refuses to start without
      expect(missingGuards(registry.db)).toEqual(['tlog_head_no_delete']);
      raw().exec('DELETE FROM tlog_head');
      appendAudit(registry, { operatorId: null, actor: 'cli:test', action: 'x', targetIds: [], outcome: 'succeeded', detail: {} });
    });
    expect(failure).toMatch(/the transparency log has no head row/);
    expect(count('SELECT COUNT(*) AS n FROM audit_log')).toBe(audits);
    expect(logSize(registry)).toBe(size);
    expect(missingGuards(registry.db)).toEqual([]);
  });

  it('still refuses a record logged twice, and a leaf written over another', () => {
    const first = before[0]!;
    const size = logSize(registry);
    const insert = (idx: number, ref: string) => () =>
      raw().query("INSERT INTO tlog_leaves (idx, kind, ref, hash) VALUES ($1, $2, $3, decode($4, 'hex'))", [
        idx,
        first.kind,
        ref,
        first.hash,
      ]);
    expect(fails(insert(size, first.ref))).toMatch(/tlog_leaves_kind_ref_key/);
    expect(fails(insert(0, 'another'))).toMatch(/tlog_leaves_pkey/);
    expect(fails(() => raw().query("UPDATE tlog_leaves SET hash = decode($1, 'hex')", ['00'.repeat(32)]))).toBe(
      'the transparency log is append-only',
    );
    expect(verifyLogDatabase(registry).problems).toEqual([]);
  });
});
