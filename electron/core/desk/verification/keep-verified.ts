// A newly verified checkpoint is kept only if the records already in the cache agree with its new
// leaves: the records a sync wrote while their leaves were not verified yet (counted as pending) are
// matched in the same transaction that keeps the checkpoint, which rolls back when one differs. The
// desk then stays at the checkpoint it verified before and the check fails with the records as
// evidence, before the sync writes anything. (Records written later are matched as they are
// written: guard.ts.)
import type { SqliteDatabase } from '@platform/db/database';
import type { CacheTables } from '../cache/schema';
import type { Mismatch } from './match';
import { matchNewLeaves } from './new-leaves';
import { saveVerified } from './store';

/** Thrown inside the transaction to undo it. */
class RollBack extends Error {}

/** Keeps `verified` (saveVerified) unless a record differs from a leaf at or after `fromLeaf`; the records that differ. */
export function keepVerifiedIfMatching(
  db: SqliteDatabase<CacheTables>,
  verified: Parameters<typeof saveVerified>[1],
  fromLeaf: number,
): Mismatch[] {
  let differing: Mismatch[] = [];
  try {
    db.transaction(() => {
      saveVerified(db, verified);
      differing = matchNewLeaves(db, fromLeaf);
      if (differing.length > 0) throw new RollBack();
    });
  } catch (error) {
    if (!(error instanceof RollBack)) throw error;
  }
  return differing;
}
