import BetterSqlite3 from 'better-sqlite3';
import { SqliteDatabase } from './database';
import { migrate, type MigrateResult, type Migration } from './migrate';

export interface OpenOptions {
  migrations: readonly Migration[];
  readonly?: boolean;
  now?: () => number;
}

/** Opens (creating if needed) a SQLite file in WAL mode and brings its schema up to date. */
export function openSqlite<Schema>(file: string, options: OpenOptions): { db: SqliteDatabase<Schema>; migration: MigrateResult } {
  const raw = new BetterSqlite3(file, { readonly: options.readonly ?? false });
  try {
    raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = NORMAL');
    raw.pragma('foreign_keys = ON');
    raw.pragma('busy_timeout = 5000');
    const migration = migrate(raw, options.migrations, options.now ? { now: options.now } : {});
    return { db: new SqliteDatabase<Schema>(raw), migration };
  } catch (error) {
    raw.close();
    throw error;
  }
}
