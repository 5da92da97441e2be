// Migration 0008 (comments on project status changes) on a database made by a version-7 registry:
// the events already recorded are kept with an empty comment, and a new status change keeps its own.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@platform/clock';
import { openSqlite } from '@platform/db/open';
import { defaultNewId, type RegistryContext } from '@registry/context';
import { registryMigrations } from '@registry/migrations';
import { openRegistry, REGISTRY_DB_FILE } from '@registry/open';
import * as ops from '@registry/operations';
import { operatorProject } from '@registry/queries/operator';
import type { RegistryTables } from '@registry/schema';
import { makeDataDir } from '@test/support/registry';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));
const NOW = Date.parse('2024-01-01T12:00:00Z');

describe('migration 0008: project event comments', () => {
  it('upgrades a version-7 database; old events have an empty comment, new ones keep theirs', () => {
    const data = makeDataDir();
    cleanups.push(data.remove);
    const { db } = openSqlite<RegistryTables>(join(data.dir, REGISTRY_DB_FILE), { migrations: registryMigrations.slice(0, 7) });
    const ctx: RegistryContext = {
      db,
      clock: new ManualClock(NOW),
      newId: defaultNewId,
      urls: { apiBaseUrl: 'http://x', publicBaseUrl: 'https://x' },
    };
    // the operations of this version that do not write project events (a status change would)
    const organizationId = ops.createOrganization(ctx, { fullName: 'Kept', countryCode: 'KE' }).id;
    const projectId = ops.createProject(ctx, {
      fullName: 'Kept draft',
      startDate: '2021-01-01',
      creditingPeriodStartDate: '2021-01-01',
      countryCode: 'KE',
      sector: { id: 'forestry', title: 'Forestry' },
      methodology: { id: 'm', title: 'M' },
      type: { id: 'removal', title: 'Removal' },
      organizationId,
    }).id;
    db.raw
      .prepare(
        `INSERT INTO project_events (id, project_id, type, created_at, project_status, previous_project_status)
         VALUES ('old-event', ?, 'status_change', ?, 'submitted', 'draft')`,
      )
      .run(projectId, NOW);
    db.close();

    const registry = openRegistry({ dataDir: data.dir, clock: new ManualClock(NOW + 1) });
    cleanups.unshift(() => registry.close());
    expect(registry.migration).toMatchObject({ from: 7, to: registryMigrations.length });
    expect(registry.db.raw.prepare("SELECT comment FROM project_events WHERE id = 'old-event'").get()).toEqual({ comment: '' });

    ops.changeProjectStatus(registry, { projectId, status: 'submitted', comment: 'Documents complete' });
    const history = operatorProject(registry, projectId).history;
    expect(history.map((e) => e.comment)).toEqual(['', 'Documents complete']);
  });
});
