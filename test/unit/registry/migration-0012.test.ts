// Migration 0012 (BEFORE INSERT guards on the append-only tables) on a database made by a version-11
// registry: INSERT OR REPLACE can no longer rewrite an audit entry, a movement or their trail rows
// (it could, past the UPDATE and DELETE triggers); new rows still go in; and a database whose guard
// trigger was dropped is refused at open and reported by the admin check.
import BetterSqlite3 from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@platform/clock';
import { openSqlite } from '@platform/db/open';
import { GUARD_TRIGGERS } from '@registry/append-only-guards';
import { audited } from '@registry/audit';
import { defaultNewId, type RegistryContext } from '@registry/context';
import { checkRegistryFile } from '@registry/maintenance';
import { registryMigrations } from '@registry/migrations';
import { openRegistry, REGISTRY_DB_FILE } from '@registry/open';
import * as ops from '@registry/operations';
import type { RegistryTables } from '@registry/schema';
import { buildFixture } from '@test/support/fixture';
import { makeDataDir } from '@test/support/registry';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));
const NOW = Date.parse('2024-01-01T12:00:00Z');

function version11Registry() {
  const data = makeDataDir();
  cleanups.push(data.remove);
  const { db } = openSqlite<RegistryTables>(join(data.dir, REGISTRY_DB_FILE), { migrations: registryMigrations.slice(0, 11) });
  const ctx: RegistryContext = {
    db,
    clock: new ManualClock(NOW),
    newId: defaultNewId,
    urls: { apiBaseUrl: 'http://x', publicBaseUrl: 'https://x' },
  };
  const f = buildFixture(ctx as never);
  db.close();
  return { dir: data.dir, f };
}

describe('migration 0012: append-only inserts', () => {
  it('upgrades a version-11 database; INSERT OR REPLACE rewrites nothing, new rows still go in', () => {
    const { dir, f } = version11Registry();
    const registry = openRegistry({ dataDir: dir, clock: new ManualClock(NOW) });
    cleanups.unshift(() => registry.close());
    expect(registry.migration).toMatchObject({ from: 11, to: registryMigrations.length });
    const { movementId } = audited(registry, { operatorId: null, actor: 'cli:test', action: 'credits.cancel', input: {} }, () =>
      ops.cancelCredits(registry, { from: { kind: 'inventory', organizationId: f.orgA }, creditId: f.creditId, amount: 1, reason: 'Test' }),
    );
    const raw = registry.db.raw;
    const entry = raw.prepare('SELECT * FROM audit_log ORDER BY seq DESC LIMIT 1').get() as Record<string, unknown>;
    const movement = raw.prepare('SELECT * FROM movements WHERE id = ?').get(movementId) as Record<string, unknown>;
    const replace = (table: string, row: Record<string, unknown>) => {
      const cols = Object.keys(row);
      raw
        .prepare(`INSERT OR REPLACE INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`)
        .run(...Object.values(row));
    };
    expect(() => replace('audit_log', { ...entry, detail: '{"forged":true}' })).toThrow(/append-only/);
    expect(() => replace('audit_log', { ...entry, seq: 9999, detail: '{"forged":true}' })).toThrow(/append-only/);
    expect(() => replace('movements', { ...movement, amount: 1 })).toThrow(/append-only/);
    expect(() => replace('cancellation_reasons', { movement_id: movementId, reason: 'Forged' })).toThrow(/append-only/);
    expect(() => replace('movement_audit', { movement_id: movementId, audit_seq: 1 })).toThrow(/append-only/);
    raw.prepare("INSERT INTO audit_targets (seq, target_id) VALUES (?, 'target-1')").run(entry.seq);
    expect(() => replace('audit_targets', { seq: entry.seq, target_id: 'target-1' })).toThrow(/append-only/);
    expect(raw.prepare('SELECT detail FROM audit_log WHERE seq = ?').get(entry.seq)).toEqual({ detail: entry.detail });
    expect(raw.prepare('SELECT reason FROM cancellation_reasons WHERE movement_id = ?').get(movementId)).toEqual({ reason: 'Test' });
    // ordinary appends are untouched
    audited(registry, { operatorId: null, actor: 'cli:test', action: 'credits.cancel', input: {} }, () =>
      ops.cancelCredits(registry, {
        from: { kind: 'inventory', organizationId: f.orgA },
        creditId: f.creditId,
        amount: 1,
        reason: 'Again',
      }),
    );
  });

  it('refuses to open a database whose guard was dropped, and the check reports it', () => {
    const { dir } = version11Registry();
    openRegistry({ dataDir: dir, clock: new ManualClock(NOW) }).close();
    expect(checkRegistryFile(dir)).toMatchObject({ ok: true });
    for (const name of GUARD_TRIGGERS.sqlite) {
      const raw = new BetterSqlite3(join(dir, REGISTRY_DB_FILE));
      const sql = (raw.prepare('SELECT sql FROM sqlite_master WHERE name = ?').get(name) as { sql: string }).sql;
      raw.exec(`DROP TRIGGER ${name}`);
      raw.close();
      expect(() => openRegistry({ dataDir: dir, clock: new ManualClock(NOW) })).toThrow(new RegExp(`guard trigger ${name} is missing`));
      const report = checkRegistryFile(dir);
      expect(report.ok).toBe(false);
      expect(report.problems.join(' ')).toContain(name);
      const again = new BetterSqlite3(join(dir, REGISTRY_DB_FILE));
      again.exec(sql);
      again.close();
    }
  });
});
