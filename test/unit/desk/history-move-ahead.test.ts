// A verified replay's movements moved into hv_movements ahead of its keep (verification/store.ts
// moveVerifiedAhead), a piece at a time inside a first sync's load: every movement once, the
// references index dropped for the move and built at its end, the keep (saveVerified) finishing a
// move cut short, and nothing of it left when the load rolls back.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDeskCache, type DeskCache } from '@desk/cache';
import { emptyMovements, type MovementColumns } from '@desk/verification/leaves';
import { keepReplayed, moveVerifiedAhead, readState, saveVerified, startReplay } from '@desk/verification/store';
import { makeDataDir } from '@test/support/registry';

const work = makeDataDir('desk-move-ahead-');
afterAll(() => work.remove());

/** More than two pieces' worth of movements (a piece is 50,000). */
const MOVEMENTS = 120_001;

function replayedMovements(count: number): MovementColumns {
  const columns = emptyMovements(count);
  for (let i = 0; i < count; i++) {
    columns.id[i] = 1_000 + i;
    columns.leaf[i] = 7 + i;
    columns.creditId.push(`credit-${i % 977}`);
    columns.kind.push(i % 3 === 0 ? 'retire' : 'transfer');
    columns.fromAccount.push(`org-${i % 31}`);
    columns.toAccount.push(i % 3 === 0 ? null : `org-${i % 17}`);
    columns.amount[i] = 1_000_000 + i;
    columns.createdAt[i] = 1_700_000_000_000 + i;
    columns.reference.push(i % 3 === 0 ? `retirement-${i}` : null);
  }
  columns.count = count;
  return columns;
}

/** A cache with a replay of MOVEMENTS movements waiting in its temporary table, its load's transaction open. */
function replayedCache(name: string): DeskCache {
  const cache = openDeskCache(join(work.dir, `${name}.sqlite`));
  startReplay(cache.db);
  cache.db.raw.exec('BEGIN IMMEDIATE');
  keepReplayed(cache.db, replayedMovements(MOVEMENTS));
  return cache;
}

const count = (cache: DeskCache, table: string) => cache.db.raw.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
const referencesIndexed = (cache: DeskCache) =>
  cache.db.raw.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'hv_movements_by_reference'").pluck().get() === 1;
const verified = { key: 'key', checkpoint: { size: MOVEMENTS + 7, root: 'root', note: 'note' }, frontier: [], at: 1 };

/** Runs every piece there is; how many there were. */
function moveAll(cache: DeskCache): number {
  let pieces = 0;
  for (let piece = moveVerifiedAhead(cache.db); piece; piece = moveVerifiedAhead(cache.db)) {
    piece();
    pieces++;
  }
  return pieces;
}

describe('moveVerifiedAhead', () => {
  it('moves every movement in pieces, the references index built once they are all in', () => {
    const cache = replayedCache('whole');
    const first = moveVerifiedAhead(cache.db)!;
    first();
    // one piece in: the rest still waits, and the index is dropped while the rows come
    expect(count(cache, 'main.hv_movements')).toBe(50_000);
    expect(count(cache, 'temp.hv_replay')).toBe(MOVEMENTS - 50_000);
    expect(referencesIndexed(cache)).toBe(false);
    // two more pieces of rows, then the index
    expect(moveAll(cache)).toBe(3);
    expect(count(cache, 'main.hv_movements')).toBe(MOVEMENTS);
    expect(count(cache, 'temp.hv_replay')).toBe(0);
    expect(referencesIndexed(cache)).toBe(true);
    expect(cache.db.raw.pragma('integrity_check', { simple: true })).toBe('ok');
    // the keep then keeps the checkpoint, with nothing left to move
    saveVerified(cache.db, verified);
    cache.db.raw.exec('COMMIT');
    expect(count(cache, 'main.hv_movements')).toBe(MOVEMENTS);
    expect(readState(cache.db)).toMatchObject({ outcome: 'verified', size: MOVEMENTS + 7 });
    const last = cache.db.raw.prepare('SELECT * FROM hv_movements ORDER BY leaf DESC LIMIT 1').get();
    expect(last).toEqual({
      id: 1_000 + MOVEMENTS - 1,
      leaf: 7 + MOVEMENTS - 1,
      credit_id: `credit-${(MOVEMENTS - 1) % 977}`,
      kind: 'retire',
      from_account: `org-${(MOVEMENTS - 1) % 31}`,
      to_account: null,
      amount: 1_000_000 + MOVEMENTS - 1,
      created_at: 1_700_000_000_000 + MOVEMENTS - 1,
      reference: `retirement-${MOVEMENTS - 1}`,
    });
    cache.close();
  });

  it('leaves the keep to finish a move its pages cut short', () => {
    const cache = replayedCache('cut-short');
    moveVerifiedAhead(cache.db)!();
    expect(referencesIndexed(cache)).toBe(false);
    saveVerified(cache.db, verified);
    expect(count(cache, 'main.hv_movements')).toBe(MOVEMENTS);
    expect(count(cache, 'temp.hv_replay')).toBe(0);
    expect(referencesIndexed(cache)).toBe(true);
    cache.db.raw.exec('COMMIT');
    expect(cache.db.raw.pragma('integrity_check', { simple: true })).toBe('ok');
    cache.close();
  });

  it('keeps nothing of a move when the load rolls back, and starts afresh with the next replay', () => {
    const cache = replayedCache('rolled-back');
    moveAll(cache);
    cache.db.raw.exec('ROLLBACK');
    expect(count(cache, 'main.hv_movements')).toBe(0);
    expect(referencesIndexed(cache)).toBe(true);
    // the next replay moves its own movements, the index dropped and built again as before
    startReplay(cache.db);
    cache.db.raw.exec('BEGIN IMMEDIATE');
    keepReplayed(cache.db, replayedMovements(10));
    expect(moveAll(cache)).toBe(2);
    expect(count(cache, 'main.hv_movements')).toBe(10);
    expect(referencesIndexed(cache)).toBe(true);
    cache.db.raw.exec('COMMIT');
    cache.close();
  });

  it('moves nothing outside a transaction, nor into movements already kept', () => {
    const cache = openDeskCache(join(work.dir, 'kept-before.sqlite'));
    startReplay(cache.db);
    keepReplayed(cache.db, replayedMovements(10));
    expect(moveVerifiedAhead(cache.db)).toBeNull();
    saveVerified(cache.db, verified);
    expect(count(cache, 'main.hv_movements')).toBe(10);
    // a later replay's movements join kept ones at the keep, not ahead of it
    startReplay(cache.db);
    cache.db.raw.exec('BEGIN IMMEDIATE');
    const later = replayedMovements(20);
    later.id = later.id.map((id) => id + 10);
    later.leaf = later.leaf.map((leaf) => leaf + 10);
    keepReplayed(cache.db, later);
    expect(moveAll(cache)).toBe(1);
    expect(count(cache, 'main.hv_movements')).toBe(10);
    expect(count(cache, 'temp.hv_replay')).toBe(20);
    expect(referencesIndexed(cache)).toBe(true);
    saveVerified(cache.db, verified);
    cache.db.raw.exec('COMMIT');
    expect(count(cache, 'main.hv_movements')).toBe(30);
    cache.close();
  });
});
