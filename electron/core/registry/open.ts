import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openSqlite } from '../platform/db/open';
import type { SqliteDatabase } from '../platform/db/database';
import { PostgresDatabase } from '../platform/db/postgres';
import { assertGuards } from './append-only-guards';
import { migratePostgres } from '../platform/db/postgres-migrate';
import { registryPostgresMigrations } from './migrations/postgres';
import type { MigrateResult } from '../platform/db/migrate';
import { systemClock, type Clock } from '../platform/clock';
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
  /**
   * Open a database that may have been tampered with, only to inspect it (`admin verify-log`): the
   * append-only guards are not required, and the caller reports the missing ones itself.
   */
  inspecting?: boolean;
}

export interface OpenedRegistry extends RegistryContext {
  /** A folder's registry is SQLite's (its file, backups and checks need the raw connection). */
  db: SqliteDatabase<RegistryTables>;
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
  try {
    if (!options.inspecting) assertGuards(db, file);
  } catch (error) {
    db.close();
    throw error;
  }
  return {
    db,
    clock,
    newId: options.newId ?? defaultNewId,
    urls: urlsOf(options.urls),
    migration,
    close: () => db.close(),
  };
}

export interface OpenPostgresRegistryOptions {
  /** A libpq connection string or URL, e.g. postgres://user@host:5432/registry. */
  databaseUrl: string;
  clock?: Clock;
  newId?: () => string;
  urls?: Partial<RegistryUrls>;
  /**
   * Open a database that may have been tampered with, only to inspect it (`admin verify-log`): the
   * append-only guards are not required, and the caller reports the missing ones itself.
   */
  inspecting?: boolean;
}

export interface OpenedPostgresRegistry extends RegistryContext {
  db: PostgresDatabase<RegistryTables>;
  migration: MigrateResult;
  close(): void;
}

/**
 * The shared registry on PostgreSQL: one connection for this process, the schema brought up to date
 * (several processes may start at once; a newer schema is refused). Back it up with pg_dump.
 */
export function openPostgresRegistry(options: OpenPostgresRegistryOptions): OpenedPostgresRegistry {
  const db = new PostgresDatabase<RegistryTables>(options.databaseUrl);
  let migration: MigrateResult;
  try {
    migration = migratePostgres(db, registryPostgresMigrations);
    if (!options.inspecting) assertGuards(db, 'the PostgreSQL registry');
  } catch (error) {
    db.close();
    throw error;
  }
  return {
    db,
    clock: options.clock ?? systemClock,
    newId: options.newId ?? defaultNewId,
    urls: urlsOf(options.urls),
    migration,
    close: () => db.close(),
  };
}

/** The registry's addresses; without a public one, a stand-in marked as such (its certificates say so). */
function urlsOf(urls: Partial<RegistryUrls> | undefined): RegistryUrls {
  const publicBaseUrl = urls?.publicBaseUrl;
  return {
    apiBaseUrl: urls?.apiBaseUrl ?? 'http://127.0.0.1',
    publicBaseUrl: publicBaseUrl ?? 'https://registry.example.org',
    ...(publicBaseUrl === undefined ? { publicBaseUrlIsPlaceholder: true } : {}),
  };
}
