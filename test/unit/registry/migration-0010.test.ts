// Migration 0010 (the feed's bounds as a view) on a database made by a version-9 registry: on SQLite
// every number taken is final (one writer commits in number order), so the view answers the counter
// and the next number, and follows each write.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@platform/clock';
import { openSqlite } from '@platform/db/open';
import { defaultNewId, type RegistryContext } from '@registry/context';
import { registryMigrations } from '@registry/migrations';
import { openRegistry, REGISTRY_DB_FILE } from '@registry/open';
import * as ops from '@registry/operations';
import { feedBounds } from '@registry/queries/changes';
import type { RegistryTables } from '@registry/schema';
import { makeDataDir } from '@test/support/registry';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));
const NOW = Date.parse('2024-01-01T12:00:00Z');

describe('migration 0010: the feed bounds', () => {
  it('upgrades a version-9 database; the bounds are the counter and the next number', () => {
    const data = makeDataDir();
    cleanups.push(data.remove);
    const { db } = openSqlite<RegistryTables>(join(data.dir, REGISTRY_DB_FILE), { migrations: registryMigrations.slice(0, 9) });
    const ctx: RegistryContext = {
      db,
      clock: new ManualClock(NOW),
      newId: defaultNewId,
      urls: { apiBaseUrl: 'http://x', publicBaseUrl: 'https://x' },
    };
    ops.createOrganization(ctx, { fullName: 'Kept', countryCode: 'KE' });
    const counter = (db.raw.prepare('SELECT seq FROM feed_sequence').get() as { seq: number }).seq;
    expect(counter).toBeGreaterThan(0);
    db.close();

    const registry = openRegistry({ dataDir: data.dir, clock: new ManualClock(NOW + 1) });
    cleanups.unshift(() => registry.close());
    expect(registry.migration).toMatchObject({ from: 9, to: registryMigrations.length });
    expect(feedBounds(registry)).toEqual({ lastNumber: counter, finalBelow: counter + 1 });
    ops.createOrganization(registry, { fullName: 'New', countryCode: 'KE' });
    const { lastNumber, finalBelow } = feedBounds(registry);
    expect(lastNumber).toBeGreaterThan(counter);
    expect(finalBelow).toBe(lastNumber + 1);
  });
});
