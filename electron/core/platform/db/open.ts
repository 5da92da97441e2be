import BetterSqlite3 from 'better-sqlite3';
import { SQLITE_BUSY_TIMEOUT_MS, SqliteDatabase } from './database';
import { migrate, type MigrateResult, type Migration } from './migrate';
import { firstLine, NativeModuleError, nativeModules, rebuildMessage, type NativeModules, type RuntimeTarget } from './native-modules';

export interface OpenOptions {
  migrations: readonly Migration[];
  readonly?: boolean;
  now?: () => number;
  /** Which better-sqlite3 binary to load; defaults to this process's choice (native-modules.ts). */
  native?: NativeModules;
  /**
   * The page size (bytes) of a file this call creates; SQLite keeps an existing file's own, which
   * only a VACUUM outside WAL mode could change. The connection's temporary tables keep SQLite's.
   */
  pageSize?: number;
  /** Runs on the open file before any migration (e.g. SQLite's quick check). */
  beforeMigrate?: (raw: BetterSqlite3.Database) => void;
}

/** SQLite's own page size, kept by the temporary tables of a connection opened with `pageSize`. */
const SQLITE_DEFAULT_PAGE_SIZE = 4096;

/** Opens (creating if needed) a SQLite file in WAL mode and brings its schema up to date. */
export function openSqlite<Schema>(file: string, options: OpenOptions): { db: SqliteDatabase<Schema>; migration: MigrateResult } {
  const raw = openBetterSqlite3(file, { readonly: options.readonly ?? false }, options.native);
  try {
    // Before the switch to WAL, which fixes the page size of an empty file.
    if (options.pageSize) raw.pragma(`page_size = ${options.pageSize}`);
    raw.pragma('journal_mode = WAL');
    // The pragma also gives its size to the temporary database the connection opens later: left
    // at 16 KiB, a first sync's peak RSS at --scale 100 rose from 293-298 MB to 321-324 MB (its
    // temporary tables hold the log's 300,000 replayed movements; bench/README.md, sync).
    if (options.pageSize) raw.pragma(`page_size = ${SQLITE_DEFAULT_PAGE_SIZE}`);
    raw.pragma('synchronous = NORMAL');
    raw.pragma('foreign_keys = ON');
    raw.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    options.beforeMigrate?.(raw);
    const migration = migrate(raw, options.migrations, options.now ? { now: options.now } : {});
    return { db: new SqliteDatabase<Schema>(raw), migration };
  } catch (error) {
    raw.close();
    throw error;
  }
}

/**
 * `new BetterSqlite3(file, options)` with the binary `native` names. Under plain Node that is
 * better-sqlite3's own. Under Electron the binary is first loaded alone (once per process), so a
 * binary that cannot load is reported as such, with what to run, and never confused with a file that
 * cannot be opened.
 */
export function openBetterSqlite3(
  file: string,
  options: BetterSqlite3.Options = {},
  native: NativeModules = nativeModules(),
): BetterSqlite3.Database {
  const target = native.target;
  if (!target) return new BetterSqlite3(file, options);
  const nativeBinding = native.betterSqlite3Binding;
  assertLoadable(native, target);
  return new BetterSqlite3(file, nativeBinding ? { ...options, nativeBinding } : options);
}

const loadable = new Set<string>();

function assertLoadable(native: NativeModules, target: RuntimeTarget): void {
  if (native.problem) throw new NativeModuleError(rebuildMessage('better-sqlite3', target, native.problem));
  const binding = native.betterSqlite3Binding ?? '';
  if (loadable.has(binding)) return;
  try {
    // An in-memory database cannot fail to open: anything thrown here is the binary not loading.
    new BetterSqlite3(':memory:', binding ? { nativeBinding: binding } : {}).close();
  } catch (error) {
    throw new NativeModuleError(rebuildMessage('better-sqlite3', target, firstLine(error)), { cause: error });
  }
  loadable.add(binding);
}
