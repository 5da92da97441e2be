// The guard's triggers lifted for a first sync's load (verification/guard.ts): only while no
// movement is verified, only inside a transaction, put back once, and back with a rollback.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDeskCache, type DeskCache } from '@desk/cache';
import { guardVerifiedRecords, liftGuardWhileNothingVerified } from '@desk/verification/guard';
import { makeDataDir } from '@test/support/registry';

const work = makeDataDir('desk-guard-lift-');
afterAll(() => work.remove());

const triggers = (cache: DeskCache) =>
  cache.db.raw.prepare("SELECT count(*) FROM temp.sqlite_master WHERE type = 'trigger' AND name LIKE 'hv_guard_%'").pluck().get();

function guardedCache(name: string): DeskCache {
  const cache = openDeskCache(join(work.dir, `${name}.sqlite`));
  guardVerifiedRecords(cache.db);
  expect(triggers(cache)).toBe(4);
  return cache;
}

describe('liftGuardWhileNothingVerified', () => {
  it('lifts the triggers in a transaction while no movement is verified, and puts them back once', () => {
    const cache = guardedCache('lifted');
    cache.db.raw.exec('BEGIN IMMEDIATE');
    const putBack = liftGuardWhileNothingVerified(cache.db);
    expect(triggers(cache)).toBe(0);
    putBack();
    putBack();
    expect(triggers(cache)).toBe(4);
    cache.db.raw.exec('COMMIT');
    expect(triggers(cache)).toBe(4);
    cache.close();
  });

  it('has them back when the transaction rolls back', () => {
    const cache = guardedCache('rolled-back');
    cache.db.raw.exec('BEGIN IMMEDIATE');
    liftGuardWhileNothingVerified(cache.db);
    expect(triggers(cache)).toBe(0);
    cache.db.raw.exec('ROLLBACK');
    expect(triggers(cache)).toBe(4);
    cache.close();
  });

  it('lifts nothing once a movement is verified, nor outside a transaction', () => {
    const cache = guardedCache('verified');
    liftGuardWhileNothingVerified(cache.db)();
    expect(triggers(cache)).toBe(4);
    cache.db.raw
      .prepare(
        `INSERT INTO hv_movements (id, leaf, credit_id, kind, from_account, to_account, amount, created_at, reference)
          VALUES (1, 0, 'c1', 'retire', 'a1', NULL, 1000, 0, 'r1')`,
      )
      .run();
    cache.db.raw.exec('BEGIN IMMEDIATE');
    liftGuardWhileNothingVerified(cache.db);
    expect(triggers(cache)).toBe(4);
    // Still guarding: a retirement that differs from its verified movement is refused.
    expect(() =>
      cache.db.raw
        .prepare(
          `INSERT INTO retirements (id, created_at, is_claimed, amount, project_id, project_name, project_num, row_hash, json)
            VALUES ('r1', '1970-01-01T00:00:00.000Z', 0, 5, 'p', 'P', '1', 'h', '{}')`,
        )
        .run(),
    ).toThrow(/differs from the entry its log holds/);
    cache.db.raw.exec('ROLLBACK');
    cache.close();
  });
});
