// The log key a person reviewed for this connection (docs/desk.md, "The registry's log key"), kept
// in the connection's cache (migration 0007, hv_pin) so the sync's check uses it from the first sync
// on: pinned when the connection is added (copied from connections.json the first time the cache is
// opened) or when the person starts over. Null: the registry published no log when it was reviewed.
import type { Selectable } from 'kysely';
import type { SqliteDatabase } from '@platform/db/database';
import type { CacheTables } from '../cache/schema';
import { readState } from './store';

type Db = SqliteDatabase<CacheTables>;
export type HistoryPin = Selectable<CacheTables['hv_pin']>;

/** The key a person reviewed for this connection (when added, or when starting over), if any. */
export function readPin(db: Db): HistoryPin | undefined {
  return db.first(db.q.selectFrom('hv_pin').selectAll());
}

/** Pins the reviewed key (null: the registry published no log then); replaces an earlier pin. */
export function savePin(db: Db, v: { key: string | null; at: number; reason: HistoryPin['reason'] }): void {
  db.run(db.q.replaceInto('hv_pin').values({ one: 1, verifier_key: v.key, pinned_at: v.at, reason: v.reason }));
}

/** The key reviewed when the connection was added, pinned in a cache that has no key yet (its first open). */
export function pinReviewedKey(db: Db, key: string | null | undefined, at: number): void {
  if (key === undefined || readPin(db) || readState(db)?.verifier_key) return;
  savePin(db, { key, at, reason: 'added' });
}
