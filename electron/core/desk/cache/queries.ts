// Reads for the desk service: each returns exactly a shared/desk/api.ts shape (minus `offline`,
// which only the service knows), with `asOf` = when the resource behind it last synced. What every
// resource's queries share is here (input checks, memos, counts, sync state); each resource's own
// reads are in resources/<kind>/queries.ts.
import { sql, type RawBuilder } from 'kysely';
import { z } from 'zod';
import { SEARCH_COUNT_LIMIT, SYNC_RESOURCES, type SyncResource } from '@shared/desk/api';
import type { SqliteDatabase } from '@platform/db/database';
import type { CacheTables } from './schema';
import type { FeedCursorKey } from './types';
import { versionedMemo } from './memo';

/** The renderer (or a caller) asked for something the desk API does not allow; nothing was read. */
export class CacheInputError extends Error {
  override readonly name = 'CacheInputError';
  constructor(readonly issues: string[]) {
    super(`invalid search: ${issues.join('; ')}`);
  }
}

function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw new CacheInputError(result.error.issues.map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`));
  return result.data;
}

export const isoOrNull = (ms: number | null | undefined): string | null =>
  ms === null || ms === undefined ? null : new Date(ms).toISOString();

export interface FacetValue {
  value: string;
  label: string;
  count: number;
}

/**
 * Whether a sorted page should walk the sort index (checking each entry against the matches) rather
 * than read every match and sort. Walking reads about (offset + limit) × rows / matches index
 * entries, each cheap; reading the matches costs a lookup of a wide row each, roughly 30 times as
 * much. So walk once matches² × 30 ≥ (offset + limit) × rows.
 */
export function walkSortIndex(matches: number, rows: number, offset: number, limit: number): boolean {
  return matches * matches * 30 >= (offset + limit) * rows;
}

/** An ORDER BY list of fixed column expressions (never the caller's text) in one direction. */
export const orderBy = (columns: readonly string[], direction: 'asc' | 'desc') =>
  columns.map((c) => `${c} ${direction.toUpperCase()}`).join(', ');

/** Conditions joined with AND. */
export const allOf = (conditions: readonly RawBuilder<unknown>[]) => sql.join(conditions, sql` AND `);

/** What every resource's queries use: the database, input checks, memos kept until the cache changes, counts, asOf. */
export function createQueryBase(db: SqliteDatabase<CacheTables>) {
  // Changes whenever this connection changes a row (total_changes) or another one commits (data_version).
  const memoized = versionedMemo(() => db.changeStamp());

  const lastSuccessOf = (resource: SyncResource): number | null =>
    db.first(db.q.selectFrom('sync_state').select('last_success_at').where('resource', '=', resource))?.last_success_at ?? null;

  /** Counts up to SEARCH_COUNT_LIMIT rows of `FROM …` (a source and its WHERE); more is reported as a lower bound. */
  function boundedCount(fromWhere: RawBuilder<unknown>): { total: number; totalIsLowerBound?: true } {
    const counted = db.first(
      sql<{ n: number }>`SELECT count(*) AS n FROM (SELECT 1 FROM ${fromWhere} LIMIT ${sql.lit(SEARCH_COUNT_LIMIT + 1)})`,
    )!.n;
    return counted > SEARCH_COUNT_LIMIT ? { total: SEARCH_COUNT_LIMIT, totalIsLowerBound: true } : { total: counted };
  }

  return {
    db,
    parseInput,
    memoized,
    lastSuccessOf,
    boundedCount,
    /** When a resource last synced (ISO), null for never: the `asOf` of every answer. */
    asOf: (resource: SyncResource) => isoOrNull(lastSuccessOf(resource)),
  };
}
export type QueryBase = ReturnType<typeof createQueryBase>;

/** The queries that are no resource's own: sync state, page hashes, cursors. */
export function createCacheQueries(base: QueryBase) {
  const { db } = base;

  /** Last successful sync per resource (ISO), null for never. */
  function lastSuccess(): Record<SyncResource, string | null> {
    const rows = db.all(db.q.selectFrom('sync_state').select(['resource', 'last_success_at']));
    const byResource = new Map<string, number | null>(rows.map((r) => [r.resource, r.last_success_at]));
    return Object.fromEntries(SYNC_RESOURCES.map((r) => [r, isoOrNull(byResource.get(r))])) as Record<SyncResource, string | null>;
  }

  function syncState(resource: SyncResource): CacheTables['sync_state'] | null {
    return db.first(db.q.selectFrom('sync_state').selectAll().where('resource', '=', resource)) ?? null;
  }

  // ---- for the sync engine ----

  function pageHash(resource: SyncResource, page: number): { hash: string; ids: string[] } | null {
    const row = db.first(db.q.selectFrom('page_hashes').select(['hash', 'ids']).where('resource', '=', resource).where('page', '=', page));
    return row ? { hash: row.hash, ids: JSON.parse(row.ids) as string[] } : null;
  }

  /** id → row hash of the cached list rows of a resource. */
  function listRowHashes(resource: 'projects' | 'internalProjects' | 'retirements', ids: readonly string[]): Map<string, string> {
    if (ids.length === 0) return new Map();
    const rows =
      resource === 'retirements'
        ? db.all(db.q.selectFrom('retirements').select(['id', 'row_hash']).where('id', 'in', ids))
        : db.all(
            db.q
              .selectFrom('projects')
              .select(['id', 'row_hash'])
              .where('scope', '=', resource === 'projects' ? 'public' : 'internal')
              .where('id', 'in', ids),
          );
    return new Map(rows.map((r) => [r.id, r.row_hash]));
  }

  /** The changes feed's stored cursor (writers.setFeedCursor), null when there is none. */
  function feedCursor(): string | null {
    return feedCursorOf('feed');
  }

  /** A stored cursor of the changes feed: the app's ('feed') or an installation's ('feed:installation:<id>'). */
  function feedCursorOf(key: FeedCursorKey): string | null {
    return db.first(db.q.selectFrom('sync_state').select('watermark').where('resource', '=', key))?.watermark ?? null;
  }

  return { lastSuccess, syncState, pageHash, listRowHashes, feedCursor, feedCursorOf };
}
