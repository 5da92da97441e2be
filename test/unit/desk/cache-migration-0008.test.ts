// Cache migration 0008: the verified movements' index of references carries what a retirement is
// matched on, so the matches read the index alone (no movement's row), and an existing cache keeps
// its movements.
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '@platform/db/migrate';
import { cacheMigrations } from '@desk/cache/migrations';

const planOf = (db: BetterSqlite3.Database, query: string) =>
  (db.prepare(`EXPLAIN QUERY PLAN ${query}`).all() as { detail: string }[]).map((row) => row.detail).join(' | ');

describe('cache migration 0008 (the movements by reference)', () => {
  it('replaces the references index of a version-7 cache, its movements kept, and the matches read the index alone', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(db, cacheMigrations.slice(0, 7));
    const movement = db.prepare(
      `INSERT INTO hv_movements (id, leaf, credit_id, kind, from_account, to_account, amount, created_at, reference)
        VALUES (?, ?, 'c1', ?, NULL, 'a1', 5000000, 1764460800000, ?)`,
    );
    movement.run(1, 0, 'issue', 'ISSUE-1');
    movement.run(2, 1, 'retire', 'r1');
    movement.run(3, 2, 'transfer', null);
    migrate(db, cacheMigrations.slice(0, 8));

    expect(db.prepare('SELECT id, reference FROM hv_movements ORDER BY id').all()).toEqual([
      { id: 1, reference: 'ISSUE-1' },
      { id: 2, reference: 'r1' },
      { id: 3, reference: null },
    ]);
    const indexes = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'hv_movements' AND sql IS NOT NULL");
    expect(indexes.pluck().all()).toEqual(['hv_movements_by_reference']);
    // The count of pending retirements and the match of new leaves, shaped as match.ts and new-leaves.ts ask them.
    expect(
      planOf(
        db,
        `SELECT COUNT(*) FROM retirements r WHERE NOT EXISTS (SELECT 1 FROM main.hv_movements m WHERE m.reference = r.id AND m.kind = 'retire')`,
      ),
    ).toContain('SEARCH m USING COVERING INDEX hv_movements_by_reference (reference=? AND kind=?)');
    expect(
      planOf(
        db,
        `SELECT r.id, m.id, m.leaf, m.amount, m.created_at FROM retirements r NOT INDEXED CROSS JOIN hv_movements m ON m.reference = r.id
          WHERE m.leaf >= 0 AND m.kind = 'retire' AND m.amount != 1`,
      ),
    ).toContain('SEARCH m USING COVERING INDEX hv_movements_by_reference (reference=? AND kind=?)');
    db.close();
  });
});
