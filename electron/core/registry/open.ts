import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openSqlite } from '../db/open';
import type { MigrateResult } from '../db/migrate';
import { systemClock, type Clock } from '../clock';
import { defaultNewId, type RegistryContext, type RegistryUrls } from './context';
import type { RegistrySchema } from './schema';
import { registryMigrations } from './migrations';

export const REGISTRY_DB_FILE = 'registry.sqlite';

export interface OpenRegistryOptions {
  /** Data folder; the database is `registry.sqlite` inside it. */
  dataDir: string;
  clock?: Clock;
  newId?: () => string;
  urls?: Partial<RegistryUrls>;
}

export interface OpenedRegistry extends RegistryContext {
  migration: MigrateResult;
  close(): void;
}

export function openRegistry(options: OpenRegistryOptions): OpenedRegistry {
  mkdirSync(options.dataDir, { recursive: true });
  const clock = options.clock ?? systemClock;
  const { db, migration } = openSqlite<RegistrySchema>(join(options.dataDir, REGISTRY_DB_FILE), {
    migrations: registryMigrations,
    now: () => clock.now(),
  });
  return {
    db,
    clock,
    newId: options.newId ?? defaultNewId,
    urls: {
      apiBaseUrl: options.urls?.apiBaseUrl ?? 'http://127.0.0.1',
      publicBaseUrl: options.urls?.publicBaseUrl ?? 'https://registry.example.org',
    },
    migration,
    close: () => db.close(),
  };
}
