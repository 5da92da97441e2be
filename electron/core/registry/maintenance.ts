// A registry's file, checked and kept: SQLite's quick check before a registry opens (a damaged file
// is refused with one sentence naming it and the way back), the full integrity check, and online
// backups and restores through SQLite's backup API (`npm run admin -- check | backup | restore`).
import { MissingGuardsError, missingGuards } from './append-only-guards';
import { existsSync, renameSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { SqliteDatabase } from '@platform/db/database';
import { openBetterSqlite3 } from '../platform/db/open';

export const REGISTRY_DB_FILE = 'registry.sqlite';

/** Files beside the database that only a folder that has held a registry has. */
const REGISTRY_TRACES = ['demo-credentials.json', 'settings.json'];

export class DamagedDatabaseError extends Error {
  constructor(
    readonly file: string,
    readonly detail: string,
    dataDir: string,
  ) {
    super(
      `${file} is damaged (${detail}), so the registry will not start on it: stop the registry and restore the last backup ` +
        `with "npm run admin -- restore <backup file> --data ${dataDir}" (backups are made with "npm run admin -- backup <file> --data ${dataDir}").`,
    );
    this.name = 'DamagedDatabaseError';
  }
}

/** SQLite errors that mean the file itself is damaged (not a database, malformed, cut short). */
export function isDamageError(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^SQLITE_(CORRUPT|NOTADB)/.test(code);
}

const firstLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0]!;

/**
 * Refuses an empty database file in a folder that has held a registry: a zero-length (or
 * schema-less) or deleted registry.sqlite beside demo-credentials.json or settings.json is a lost registry, not a new one.
 */
export function assertNotEmptied(dataDir: string): void {
  const file = join(dataDir, REGISTRY_DB_FILE);
  const missing = !existsSync(file);
  if (!missing && statSync(file).size > 0) return;
  const trace = REGISTRY_TRACES.find((name) => existsSync(join(dataDir, name)));
  if (!trace) return;
  const state = missing ? 'it is missing' : 'it is empty';
  throw new DamagedDatabaseError(file, `${state}, but ${trace} beside it shows the folder held a registry`, dataDir);
}

/** Runs `PRAGMA quick_check` (or the full `integrity_check`) and returns the problems found (none: []). */
export function checkProblems(db: BetterSqlite3.Database, full = false): string[] {
  const rows = db.pragma(full ? 'integrity_check' : 'quick_check') as Record<string, string>[];
  const lines = rows.map((row) => Object.values(row)[0] ?? '');
  return lines.length === 1 && lines[0] === 'ok' ? [] : lines;
}

/** The quick check of an open registry file, throwing DamagedDatabaseError on any problem. */
export function assertQuickCheck(db: BetterSqlite3.Database, dataDir: string): void {
  let problems: string[];
  try {
    problems = checkProblems(db);
  } catch (error) {
    if (isDamageError(error)) throw new DamagedDatabaseError(db.name, firstLine(error), dataDir);
    throw error;
  }
  if (problems.length > 0) {
    const shown = problems.slice(0, 3).join('; ');
    throw new DamagedDatabaseError(db.name, problems.length > 3 ? `${shown}; and ${problems.length - 3} more` : shown, dataDir);
  }
}

function openExisting(file: string, what: string): BetterSqlite3.Database {
  if (!existsSync(file)) throw new Error(`${what} ${file} does not exist`);
  // Not read-only: a read-only connection leaves -wal and -shm files behind it.
  return openBetterSqlite3(file, { fileMustExist: true });
}

export interface CheckReport {
  file: string;
  ok: boolean;
  problems: string[];
}

/** `npm run admin -- check`: SQLite's full integrity check of the registry's file. */
export function checkRegistryFile(dataDir: string): CheckReport {
  const file = join(dataDir, REGISTRY_DB_FILE);
  let db: BetterSqlite3.Database | undefined;
  try {
    db = openExisting(file, 'the registry database');
    const problems = checkProblems(db, true);
    const missing = missingGuards(new SqliteDatabase(db));
    if (missing.length > 0) problems.push(new MissingGuardsError(file, missing).message);
    return { file, ok: problems.length === 0, problems };
  } catch (error) {
    if (isDamageError(error)) return { file, ok: false, problems: [firstLine(error)] };
    throw error;
  } finally {
    db?.close();
  }
}

/** `npm run admin -- backup <file>`: an online copy (the registry may be serving meanwhile), then checked. */
export async function backupRegistry(dataDir: string, target: string): Promise<{ file: string; backup: string; pages: number }> {
  const file = join(dataDir, REGISTRY_DB_FILE);
  const backup = resolve(target);
  if (existsSync(backup)) throw new Error(`${backup} already exists; a backup never overwrites a file`);
  const db = openExisting(file, 'the registry database');
  try {
    assertQuickCheck(db, dataDir);
    const { totalPages } = await db.backup(backup);
    const copy = openExisting(backup, 'the backup');
    try {
      copy.pragma('journal_mode = DELETE'); // one self-contained file, without -wal and -shm beside it
      const problems = checkProblems(copy);
      if (problems.length > 0) throw new Error(`the backup ${backup} failed its check: ${problems.join('; ')}`);
    } finally {
      copy.close();
    }
    return { file, backup, pages: totalPages };
  } finally {
    db.close();
  }
}

/**
 * `npm run admin -- restore <file>` (with the registry stopped): checks the backup, copies it with
 * the backup API beside the registry, moves the current file (and its WAL) aside, never deleting it,
 * and puts the copy in its place.
 */
export async function restoreRegistry(
  dataDir: string,
  source: string,
  now: () => number = Date.now,
): Promise<{ file: string; restoredFrom: string; replacedFileKeptAs: string | null }> {
  const file = join(dataDir, REGISTRY_DB_FILE);
  const from = resolve(source);
  const backup = openExisting(from, 'the backup');
  const stamp = new Date(now()).toISOString().replace(/[:.]/g, '-');
  const incoming = `${file}.restoring-${stamp}`;
  try {
    let problems: string[];
    try {
      problems = checkProblems(backup, true);
    } catch (error) {
      if (!isDamageError(error)) throw error;
      problems = [firstLine(error)];
    }
    if (problems.length > 0) throw new Error(`the backup ${from} is damaged (${problems.slice(0, 3).join('; ')}); nothing was changed`);
    await backup.backup(incoming);
  } finally {
    backup.close();
  }
  let kept: string | null = null;
  if (existsSync(file)) {
    kept = `${file}.replaced-${stamp}`;
    for (const suffix of ['-wal', '-shm']) if (existsSync(file + suffix)) renameSync(file + suffix, kept + suffix);
    renameSync(file, kept);
  }
  renameSync(incoming, file);
  return { file, restoredFrom: from, replacedFileKeptAs: kept };
}
