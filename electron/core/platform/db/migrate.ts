// Schema migrations, one file per step (see each store's migrations/ folder). The schema version is
// SQLite's user_version. A database newer than the app is refused, never touched; a file database
// is backed up beside itself before the first pending step runs; each step runs in its own
// transaction together with the version bump.
import { existsSync } from 'node:fs';
import type { RawDatabase } from './database';

export interface Migration {
  version: number;
  name: string;
  up(db: RawDatabase): void;
}

export class DatabaseTooNewError extends Error {
  constructor(
    readonly file: string,
    readonly found: number,
    readonly supported: number,
  ) {
    super(
      `${file} has schema version ${found}, newer than this app supports (${supported}). ` +
        'Update Registry Desk, or open a different data folder.',
    );
  }
}

export function schemaVersion(db: RawDatabase): number {
  return db.pragma('user_version', { simple: true }) as number;
}

export interface MigrateResult {
  from: number;
  to: number;
  backupFile?: string;
}

export function migrate(db: RawDatabase, migrations: readonly Migration[], options: { now?: () => number } = {}): MigrateResult {
  const ordered = [...migrations].sort((a, b) => a.version - b.version);
  ordered.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migrations must be numbered 1..n without gaps; found ${m.version} at ${i + 1}`);
  });
  const latest = ordered.length;
  const from = schemaVersion(db);
  const file = db.name;
  if (from > latest) throw new DatabaseTooNewError(file, from, latest);
  if (from === latest) return { from, to: latest };

  let backupFile: string | undefined;
  if (from > 0 && !db.memory && existsSync(file)) {
    const stamp = new Date(options.now?.() ?? Date.now()).toISOString().replace(/[:.]/g, '-');
    backupFile = `${file}.v${from}-${stamp}.bak`;
    db.prepare('VACUUM INTO ?').run(backupFile);
  }
  for (const migration of ordered.slice(from)) {
    db.transaction(() => {
      migration.up(db);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
  return { from, to: latest, ...(backupFile ? { backupFile } : {}) };
}
