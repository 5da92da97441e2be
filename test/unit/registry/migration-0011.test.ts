// Migration 0011 (covering movements-by-credit index) on a database made by a version-10 registry:
// credit summaries answer the same, and sum a credit's movements from the index alone.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@platform/clock';
import { openSqlite } from '@platform/db/open';
import { defaultNewId, type RegistryContext } from '@registry/context';
import { registryMigrations } from '@registry/migrations';
import { openRegistry, REGISTRY_DB_FILE } from '@registry/open';
import { projectCredits } from '@registry/queries/project-credits';
import type { RegistryTables } from '@registry/schema';
import { buildFixture } from '@test/support/fixture';
import { makeDataDir } from '@test/support/registry';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));
const NOW = Date.parse('2024-01-01T12:00:00Z');
const urls = { apiBaseUrl: 'http://127.0.0.1', publicBaseUrl: 'https://r.example' };

describe('migration 0011: covering movements-by-credit index', () => {
  it('upgrades a version-10 database; credit summaries read the same, from the index alone', () => {
    const data = makeDataDir();
    cleanups.push(data.remove);
    const { db } = openSqlite<RegistryTables>(join(data.dir, REGISTRY_DB_FILE), { migrations: registryMigrations.slice(0, 10) });
    const ctx: RegistryContext = { db, clock: new ManualClock(NOW), newId: defaultNewId, urls };
    const f = buildFixture(ctx as Parameters<typeof buildFixture>[0]);
    const before = JSON.stringify(projectCredits(ctx, f.projectId));
    db.close();

    const registry = openRegistry({ dataDir: data.dir, clock: new ManualClock(NOW), urls });
    cleanups.unshift(() => registry.close());
    expect(registry.migration).toMatchObject({ from: 10, to: registryMigrations.length });
    const columns = (registry.db.raw.prepare("SELECT name FROM pragma_index_info('movements_by_credit')").all() as { name: string }[]).map(
      (c) => c.name,
    );
    expect(columns).toEqual(['credit_id', 'kind', 'amount']);
    expect(JSON.stringify(projectCredits(registry, f.projectId))).toBe(before);
    expect(before).toMatch(/"exPost":[1-9]/); // the fixture's credits were issued: the sums are not all zero
    const plan = registry.db.raw
      .prepare(`EXPLAIN QUERY PLAN SELECT SUM(amount) FROM movements WHERE credit_id = ? AND kind = 'issue'`)
      .all(f.creditId) as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toMatch(/COVERING INDEX movements_by_credit/);
  });
});
