import BetterSqlite3 from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseTooNewError, migrate, schemaVersion } from '@platform/db/migrate';
import { openDeskCache } from '@desk/cache';
import { cacheMigrations } from '@desk/cache/migrations';
import { migration0001 } from '@desk/cache/migrations/0001-resources';
import { migration0002 } from '@desk/cache/migrations/0002-search';
import { migration0003 } from '@desk/cache/migrations/0003-fast-search';
import { makeDataDir } from '@test/support/registry';

const dirs: { remove(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.remove()));
const tempFile = () => {
  const d = makeDataDir('desk-cache-mig-');
  dirs.push(d);
  return join(d.dir, 'cache.sqlite');
};
const tables = (db: BetterSqlite3.Database) =>
  db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[];

describe('desk cache migrations', () => {
  it('0001 creates the resource tables with their keys', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(db, [migration0001]);
    expect(tables(db)).toEqual(
      expect.arrayContaining([
        'projects',
        'project_details',
        'project_credits',
        'project_vintages',
        'inventories',
        'retirements',
        'organizations',
        'warehouses',
        'sync_state',
        'page_hashes',
        'staging',
      ]),
    );
    const insert = db.prepare(
      "INSERT INTO projects (scope, id, num, num_sort, full_name, short_description, status, sector_id, sector_title, methodology_id, methodology_title, type_id, type_title, proponents, start_date, row_hash, json) VALUES (?, 'p', '1', 1, 'n', '', 'draft', 's', 'S', 'm', 'M', 't', 'T', '', '2020', 'h', '{}')",
    );
    insert.run('public');
    insert.run('internal'); // the same project in both scopes
    expect(() => insert.run('public')).toThrow(/UNIQUE/);
    expect(() => insert.run('secret')).toThrow(/CHECK/);
    db.close();
  });

  it('0002 adds FTS5 search with diacritics folded', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(db, [migration0001, migration0002]);
    db.prepare(
      "INSERT INTO retirements_fts (rowid, beneficiary, serialization, project) VALUES (1, 'Jonas Müller', 'ICR-KEN-1-7-1-S-1-2022', 'Kilimanjaro 7')",
    ).run();
    expect(db.prepare(`SELECT rowid FROM retirements_fts WHERE retirements_fts MATCH '"mull"*'`).pluck().all()).toEqual([1]);
    expect(db.prepare(`SELECT rowid FROM retirements_fts WHERE retirements_fts MATCH '"ICR KEN 1"*'`).pluck().all()).toEqual([1]);
    db.close();
  });

  it('0003 splits project search per scope (keeping what a version-2 cache held) and adds organization freshness', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(db, [migration0001, migration0002]);
    const insert = db.prepare(
      "INSERT INTO projects (scope, id, num, num_sort, full_name, short_description, status, sector_id, sector_title, methodology_id, methodology_title, type_id, type_title, proponents, start_date, row_hash, json) VALUES (?, ?, '1', 1, ?, '', 'draft', 's', 'S', 'm', 'M', 't', 'T', '', '2020', 'h', '{}')",
    );
    const fts = db.prepare(
      "INSERT INTO projects_fts (rowid, name, num, description, country, methodology, proponents) VALUES (?, ?, '1', '', '', '', '')",
    );
    fts.run(insert.run('public', 'p1', 'Kilimanjaro Reforestation').lastInsertRowid, 'Kilimanjaro Reforestation');
    fts.run(insert.run('internal', 'p1', 'Kilimanjaro Reforestation').lastInsertRowid, 'Kilimanjaro Reforestation');
    fts.run(insert.run('internal', 'p2', 'Kiln Draft').lastInsertRowid, 'Kiln Draft');
    db.prepare("INSERT INTO organizations (id, full_name, installed, json, fetched_at) VALUES ('o', 'O', 0, '{}', 1)").run();
    migrate(db, [migration0001, migration0002, migration0003]);
    const names = (scope: string) =>
      db
        .prepare(
          `SELECT p.full_name FROM projects_${scope}_fts f JOIN projects p ON p.rowid = f.rowid WHERE projects_${scope}_fts MATCH '"kil"*' ORDER BY p.full_name`,
        )
        .pluck()
        .all();
    expect(names('public')).toEqual(['Kilimanjaro Reforestation']);
    expect(names('internal')).toEqual(['Kilimanjaro Reforestation', 'Kiln Draft']);
    expect(tables(db)).not.toContain('projects_fts');
    expect(tables(db)).toContain('organizations_unseen');
    expect(db.prepare("SELECT needs_refresh FROM organizations WHERE id = 'o'").pluck().get()).toBe(0);
    db.close();
  });

  it('opens a new cache at the latest version, reopens without change, and refuses a cache from a newer desk untouched', () => {
    const file = tempFile();
    const cache = openDeskCache(file);
    expect(cache.migration).toEqual({ from: 0, to: cacheMigrations.length });
    cache.close();
    const again = openDeskCache(file);
    expect(again.migration).toEqual({ from: cacheMigrations.length, to: cacheMigrations.length });
    again.close();
    const raw = new BetterSqlite3(file);
    raw.pragma(`user_version = ${cacheMigrations.length + 1}`);
    raw.close();
    expect(() => openDeskCache(file)).toThrow(DatabaseTooNewError);
    const check = new BetterSqlite3(file);
    expect(schemaVersion(check)).toBe(cacheMigrations.length + 1);
    check.close();
  });
});
