// The helper that runs kysely queries synchronously through better-sqlite3: typed rows from a query
// builder or a `sql` template, changes in one synchronous transaction, and prepared queries that
// compile once and bind each run's values where the placeholders stood.
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteDatabase } from '@platform/db/database';
import { openBetterSqlite3 } from '@platform/db/open';

interface Tables {
  items: { id: string; amount: number; note: string | null };
}

const databases: SqliteDatabase<Tables>[] = [];
afterEach(() => databases.splice(0).forEach((db) => db.close()));

function open(): SqliteDatabase<Tables> {
  const raw = openBetterSqlite3(':memory:');
  raw.exec('CREATE TABLE items (id TEXT PRIMARY KEY, amount INTEGER NOT NULL, note TEXT) STRICT');
  const db = new SqliteDatabase<Tables>(raw);
  databases.push(db);
  return db;
}

const byAmountAbove = (v: { min: number }, q: Kysely<Tables>) =>
  q.selectFrom('items').select(['id', 'amount']).where('amount', '>', v.min).where('note', 'is', null).orderBy('id');
const insertItem = (v: { id: string; amount: number; note: string | null }, q: Kysely<Tables>) =>
  q.insertInto('items').values({ id: v.id, amount: v.amount, note: v.note });

describe('SqliteDatabase', () => {
  it('runs builder queries and sql templates synchronously, with their rows', () => {
    const db = open();
    expect(
      db.run(
        db.q.insertInto('items').values([
          { id: 'a', amount: 5, note: null },
          { id: 'b', amount: 7, note: 'x' },
        ]),
      ).changes,
    ).toBe(2);
    expect(db.all(db.q.selectFrom('items').select(['id', 'note']).orderBy('id'))).toEqual([
      { id: 'a', note: null },
      { id: 'b', note: 'x' },
    ]);
    expect(db.first(db.q.selectFrom('items').select('amount').where('id', '=', 'b'))).toEqual({ amount: 7 });
    expect(db.first(db.q.selectFrom('items').select('amount').where('id', '=', 'none'))).toBeUndefined();
    expect(db.first(sql<{ total: number }>`SELECT sum(amount) AS total FROM items WHERE amount > ${1}`)).toEqual({ total: 12 });
  });

  it('rolls a whole transaction back when it throws', () => {
    const db = open();
    expect(() =>
      db.transaction(() => {
        db.run(db.q.insertInto('items').values({ id: 'a', amount: 1, note: null }));
        db.run(db.q.insertInto('items').values({ id: 'a', amount: 2, note: null }));
      }),
    ).toThrow(/UNIQUE/);
    expect(db.all(db.q.selectFrom('items').selectAll())).toEqual([]);
  });

  it('compiles a prepared query once and binds each run its own values', () => {
    const db = open();
    const insert = db.prepared(insertItem);
    expect(db.prepared(insertItem)).toBe(insert);
    insert.run({ id: 'a', amount: 1, note: null });
    insert.run({ id: 'b', amount: 5, note: null });
    insert.run({ id: 'c', amount: 9, note: 'kept aside' });
    expect(db.prepared(byAmountAbove).all({ min: 0 })).toEqual([
      { id: 'a', amount: 1 },
      { id: 'b', amount: 5 },
    ]);
    expect(db.prepared(byAmountAbove).all({ min: 2 })).toEqual([{ id: 'b', amount: 5 }]);
    expect(db.prepared(byAmountAbove).first({ min: 5 })).toBeUndefined();
  });
});
