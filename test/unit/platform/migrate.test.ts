import BetterSqlite3 from 'better-sqlite3';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseTooNewError, migrate, schemaVersion, type Migration } from '@platform/db/migrate';
import { openSqlite } from '@platform/db/open';
import { makeDataDir } from '@test/support/registry';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((f) => f()));

function tempFile(name = 'db.sqlite') {
  const d = makeDataDir('migrate-test-');
  cleanups.push(d.remove);
  return { dir: d.dir, file: join(d.dir, name) };
}

const steps: Migration[] = [
  { version: 1, name: 'one', up: (db) => db.exec('CREATE TABLE a (x INTEGER)') },
  { version: 2, name: 'two', up: (db) => db.exec('ALTER TABLE a ADD COLUMN y TEXT') },
];

describe('migrate', () => {
  it('brings an empty database to the latest version, one step at a time', () => {
    const { file } = tempFile();
    const db = new BetterSqlite3(file);
    const result = migrate(db, steps);
    expect(result).toEqual({ from: 0, to: 2 });
    expect(schemaVersion(db)).toBe(2);
    db.prepare('INSERT INTO a (x, y) VALUES (1, ?)').run('ok');
    db.close();
  });

  it('refuses a database newer than the app and leaves it untouched', () => {
    const { file } = tempFile();
    const db = new BetterSqlite3(file);
    migrate(db, steps);
    db.pragma('user_version = 7');
    expect(() => migrate(db, steps)).toThrow(DatabaseTooNewError);
    expect(schemaVersion(db)).toBe(7);
    db.close();
    expect(() => openSqlite(file, { migrations: steps })).toThrow(/newer than this app supports/);
  });

  it('backs the file up before migrating an existing database', () => {
    const { dir, file } = tempFile();
    const db = new BetterSqlite3(file);
    migrate(db, steps.slice(0, 1));
    db.prepare('INSERT INTO a (x) VALUES (42)').run();
    const result = migrate(db, steps);
    expect(result.from).toBe(1);
    expect(result.backupFile && existsSync(result.backupFile)).toBe(true);
    const backup = new BetterSqlite3(result.backupFile, { readonly: true });
    expect(schemaVersion(backup)).toBe(1);
    expect(backup.prepare('SELECT x FROM a').all()).toEqual([{ x: 42 }]);
    backup.close();
    db.close();
    expect(readdirSync(dir).filter((f) => f.endsWith('.bak'))).toHaveLength(1);
  });

  it('rolls a failing step back completely, keeping the previous version', () => {
    const { file } = tempFile();
    const db = new BetterSqlite3(file);
    const failing: Migration[] = [
      steps[0]!,
      {
        version: 2,
        name: 'bad',
        up: (d) => {
          d.exec('CREATE TABLE b (z INTEGER)');
          throw new Error('boom');
        },
      },
    ];
    migrate(db, steps.slice(0, 1));
    expect(() => migrate(db, failing)).toThrow('boom');
    expect(schemaVersion(db)).toBe(1);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'b'").get()).toBeUndefined();
    db.close();
  });

  it('refuses a migration list with gaps', () => {
    const db = new BetterSqlite3(':memory:');
    expect(() => migrate(db, [steps[1]!])).toThrow(/without gaps/);
    db.close();
  });
});
