// Migration 0002 (project list indexes) on a database made by a version-1 registry: the data is
// kept, a backup is written, the indexes exist and the list queries use them.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sql, type RawBuilder } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@platform/clock';
import { openSqlite } from '@platform/db/open';
import { defaultNewId, type RegistryContext } from '@registry/context';
import { migration0001 } from '@registry/migrations/0001-initial';
import { openRegistry, REGISTRY_DB_FILE } from '@registry/open';
import * as ops from '@registry/operations';
import { countProjects, listProjects } from '@registry/queries/projects';
import { COUNT_PUBLIC_PROJECTS, PUBLIC_PROJECT_CONDITION } from '@registry/queries/project-visibility';
import type { RegistryTables } from '@registry/schema';
import { makeDataDir } from '@test/support/registry';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function seedVersion1(dir: string): string[] {
  const { db, migration } = openSqlite<RegistryTables>(join(dir, REGISTRY_DB_FILE), { migrations: [migration0001] });
  expect(migration.to).toBe(1);
  const ctx: RegistryContext = {
    db,
    clock: new ManualClock(Date.parse('2024-01-01')),
    newId: defaultNewId,
    urls: { apiBaseUrl: 'http://127.0.0.1', publicBaseUrl: 'https://r.example' },
  };
  const org = ops.createOrganization(ctx, { fullName: 'Proponent', countryCode: 'KE', verified: true }).id;
  const ids = [12, 3, 100].map(
    (n) =>
      ops.createProject(ctx, {
        num: String(n),
        fullName: `Project ${n}`,
        status: 'validated',
        organizationId: org,
        countryCode: 'KE',
        startDate: '2020-01-01',
        creditingPeriodStartDate: '2020-01-01',
        sector: { id: 's', title: 'S' },
        methodology: { id: 'm', title: 'M' },
        type: { id: 'removal', title: 'Removal' },
      }).id,
  );
  db.close();
  return ids;
}

describe('migration 0002: project list indexes', () => {
  it('upgrades a version-1 database, keeping its data', () => {
    const data = makeDataDir();
    cleanups.push(data.remove);
    const [p12, p3, p100] = seedVersion1(data.dir);
    const registry = openRegistry({ dataDir: data.dir });
    cleanups.unshift(() => registry.close());

    expect(registry.migration.from).toBe(1);
    expect(registry.migration.to).toBeGreaterThanOrEqual(2);
    expect(registry.migration.backupFile && existsSync(registry.migration.backupFile)).toBe(true);
    const indexes = (
      registry.db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'projects'`).all() as { name: string }[]
    ).map((r) => r.name);
    expect(indexes).toEqual(expect.arrayContaining(['projects_by_number', 'projects_by_organization_status']));

    // numeric order, not text order ("100" < "12" < "3")
    expect(listProjects(registry, { visibility: 'public', limit: 10, offset: 0 }).map((p) => p.id)).toEqual([p3, p12, p100]);
    expect(countProjects(registry, 'public')).toBe(3);
  });

  it('makes the list and the count use the new indexes', () => {
    const data = makeDataDir();
    cleanups.push(data.remove);
    seedVersion1(data.dir);
    const registry = openRegistry({ dataDir: data.dir });
    cleanups.unshift(() => registry.close());
    const plan = (query: RawBuilder<unknown>) => {
      const compiled = registry.db.compile(query);
      return (registry.db.raw.prepare(`EXPLAIN QUERY PLAN ${compiled.sql}`).all(...compiled.parameters) as { detail: string }[])
        .map((r) => r.detail)
        .join(' | ');
    };
    const page = plan(sql`SELECT p.id FROM projects p WHERE ${PUBLIC_PROJECT_CONDITION} ORDER BY CAST(p.num AS INTEGER), p.id LIMIT 10`);
    expect(page).toContain('projects_by_number');
    expect(page).not.toContain('TEMP B-TREE');
    expect(plan(COUNT_PUBLIC_PROJECTS)).toContain('projects_by_organization_status');
  });
});
