// Cache migration 0010: each project row's proponents as organization ids (proponent_ids, a JSON
// array in the project's order) in an index with its scope, which proponentIds reads alone; the
// rows a cache held before get theirs from their JSON.
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '@platform/db/migrate';
import { cacheMigrations } from '@desk/cache/migrations';

/** A project row as a version-9 cache holds it: its proponents only in its JSON. */
function putProject(db: BetterSqlite3.Database, scope: 'public' | 'internal', id: string, proponents: string[]): void {
  const json = JSON.stringify({ id, proponents: proponents.map((o) => ({ id: o, fullName: `Organization ${o}` })) });
  db.prepare(
    `INSERT INTO projects (scope, id, num, num_sort, full_name, short_description, status, sector_id, sector_title,
       methodology_id, methodology_title, type_id, type_title, proponents, start_date, row_hash, json)
     VALUES (?, ?, '1', 1, 'A project', '', 'registered', 's', 'S', 'm', 'M', 't', 'T', '', '2020-01-01', 'h', ?)`,
  ).run(scope, id, json);
}

describe('cache migration 0010 (the projects’ proponent ids)', () => {
  it('fills each row’s proponent ids from its JSON, in order, and indexes them with the scope', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(db, cacheMigrations.slice(0, 9));
    putProject(db, 'public', 'p1', ['o2', 'o1']);
    putProject(db, 'public', 'p2', []);
    putProject(db, 'internal', 'p1', ['o2', 'o1', 'o3']);
    migrate(db, cacheMigrations.slice(0, 10));

    const ids = db.prepare('SELECT scope, id, proponent_ids FROM projects ORDER BY scope, id').all();
    expect(ids).toEqual([
      { scope: 'internal', id: 'p1', proponent_ids: '["o2","o1","o3"]' },
      { scope: 'public', id: 'p1', proponent_ids: '["o2","o1"]' },
      { scope: 'public', id: 'p2', proponent_ids: '[]' },
    ]);
    const plan = db
      .prepare("EXPLAIN QUERY PLAN SELECT DISTINCT proponent_ids FROM projects WHERE scope = 'public'")
      .all()
      .map((r) => (r as { detail: string }).detail);
    expect(plan.join(' ')).toMatch(/COVERING INDEX projects_by_proponents/);
    db.close();
  });

  it('gives a row written without them an empty list, never NULL', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(db, cacheMigrations.slice(0, 10));
    putProject(db, 'public', 'p1', ['o1']);
    expect(db.prepare('SELECT proponent_ids FROM projects').pluck().get()).toBe('[]');
    expect(() => db.prepare('UPDATE projects SET proponent_ids = NULL').run()).toThrow(/NOT NULL/);
    db.close();
  });
});
