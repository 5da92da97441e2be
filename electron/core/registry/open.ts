import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openSqlite } from '../db/open';
import type { MigrateResult } from '../db/migrate';
import { systemClock, type Clock } from '../clock';
import { defaultNewId, type RegistryContext, type RegistryUrls } from './context';
import type { RegistryTables } from './schema';
import { registryMigrations } from './migrations';
import { assertNotEmptied, assertQuickCheck, DamagedDatabaseError, isDamageError, REGISTRY_DB_FILE } from './maintenance';

export { REGISTRY_DB_FILE } from './maintenance';

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
  const file = join(options.dataDir, REGISTRY_DB_FILE);
  // A damaged or emptied file is refused before anything (a migration included) writes to it.
  assertNotEmptied(options.dataDir);
  let opened;
  try {
    opened = openSqlite<RegistryTables>(file, {
      migrations: registryMigrations,
      now: () => clock.now(),
      beforeMigrate: (raw) => assertQuickCheck(raw, options.dataDir),
    });
  } catch (error) {
    if (isDamageError(error)) throw new DamagedDatabaseError(file, (error as Error).message.split('\n')[0]!, options.dataDir);
    throw error;
  }
  const { db, migration } = opened;
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
