// Where a reader is in the changes feed (queries/changes.ts): the cursor the registry hands out and
// takes back, the feed's bounds, and the query for a page's keys after a cursor.
import { FEED_KEY_KINDS, type FeedKeyKind } from '@shared/registry/vocabulary';
import { sql } from 'kysely';
import type { RegistryContext } from '@registry/context';
import { RegistryError } from '@registry/errors';

/** Where a reader is: after this (seq, kind, key) in feed order, and the time of its last answer. */
export interface FeedCursor {
  seq: number;
  kind: string;
  key: string;
  /** Registry time of the answer that gave this cursor: reservations that lapsed since then changed. */
  at: number;
  /**
   * A snapshot in progress: the sequence when it started. Keys not changed since then were never
   * seen by the reader, so a key it may not see is left out rather than answered as removed.
   */
  snapshotOf: number;
}

const CURSOR_VERSION = 1;

export function encodeCursor(cursor: FeedCursor): string {
  return Buffer.from(JSON.stringify([CURSOR_VERSION, cursor.seq, cursor.kind, cursor.key, cursor.at, cursor.snapshotOf]), 'utf8').toString(
    'base64url',
  );
}

const badCursor = () =>
  new RegistryError('bad_request', 'query.cursor: not a cursor of this registry; start again without one (a snapshot)');

/** The cursor a client sent back; anything this registry did not make is a 400 that changes nothing. */
export function decodeCursor(ctx: RegistryContext, text: string): FeedCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== 6) throw badCursor();
  const [version, seq, kind, key, at, snapshotOf] = parsed as unknown[];
  if (version !== CURSOR_VERSION || !Number.isSafeInteger(seq) || typeof kind !== 'string' || typeof key !== 'string') throw badCursor();
  if (!Number.isSafeInteger(at) || !Number.isSafeInteger(snapshotOf)) throw badCursor();
  // A cursor ahead of the registry's sequence comes from another registry (or a restored backup).
  if ((seq as number) > feedBounds(ctx).lastNumber) throw badCursor();
  return { seq: seq as number, kind, key, at: at as number, snapshotOf: snapshotOf as number };
}

/**
 * The feed's bounds (the `feed_bounds` view of migration 0010): the highest change number handed out,
 * and the number below which every change is final. On SQLite they are the counter and the next
 * number; on PostgreSQL numbers are taken before commit, so only changes below the oldest number an
 * open transaction may still commit are read (a cursor never passes a change committed later).
 */
export function feedBounds(ctx: RegistryContext): { lastNumber: number; finalBelow: number } {
  // a view of one row, always there (not a table of the schema, so kysely does not know it)
  const row = ctx.db.first(sql<{ last_number: number; final_below: number }>`SELECT last_number, final_below FROM feed_bounds`)!;
  return { lastNumber: row.last_number, finalBelow: row.final_below };
}

/** The highest change number handed out so far. */
export function currentSequence(ctx: RegistryContext): number {
  return feedBounds(ctx).lastNumber;
}

/**
 * A page's keys: after the cursor's (seq, kind, key) and below the final bound (feedBounds), the
 * caller's warehouse only, of the kinds asked for, and of organization and warehouse keys only
 * `onlyOrganization`'s when given (an installation's own). The kinds filter is on `kind || ''`, not `kind`: on `kind` SQLite would pick the
 * primary key (kind, key) over the sequence index and sort every key of those kinds for each page
 * (far slower a poll at --scale 100: bench/README.md); PostgreSQL plans it the same either way.
 */
export function feedPageQuery(page: {
  after: { seq: number; kind: string; key: string };
  finalBelow: number;
  organizationId: string | null;
  kinds: readonly FeedKeyKind[];
  onlyOrganization?: string | undefined;
  limit: number;
}) {
  // One value per kind the feed has, unused ones repeating the first asked for: one statement whatever the kinds.
  const kinds = FEED_KEY_KINDS.map((_, i) => page.kinds[i] ?? page.kinds[0] ?? '');
  const { after } = page;
  // No organization id is empty (idString): '' stands for "not narrowed", one statement either way.
  const only = page.onlyOrganization ?? '';
  return sql<{ kind: FeedKeyKind; key: string; seq: number }>`SELECT kind, key, seq FROM feed_changes
    WHERE (seq, kind, key) > (${after.seq}, ${after.kind}, ${after.key}) AND seq < ${page.finalBelow}
      AND (kind <> 'warehouse' OR key = ${page.organizationId}) AND (kind || '') IN (${sql.join(kinds)})
      AND (kind NOT IN ('organization', 'warehouse') OR ${only} = '' OR key = ${only})
    ORDER BY seq, kind, key LIMIT ${page.limit}`;
}
