// migrations/0010-feed-bounds.ts on PostgreSQL: changes are numbered by their transaction, so writes
// from several processes no longer queue on the feed's one counter row (migration 0006 updated it in
// every write and held its lock to commit: every client-visible write was serialized, and under
// SERIALIZABLE the loser of each collision ran again).
//
// A change's number is `base + its transaction id` (xid8, taken without blocking and never reused);
// `base` is the counter's last value, frozen here, so every new number is above every number handed
// out before (old cursors stay valid). Numbers are taken before commit, so a reader must not pass a
// number that a transaction still open may yet commit: it reads only changes below `final_below`, the
// oldest transaction id still running in this database at its snapshot (pg_snapshot_xip, less those
// pg_stat_activity shows in another database of the cluster; with none, the snapshot's xmax). Every
// transaction below it has ended, and any that commits later has an id at or above it, so a cursor
// never skips a change committed after it. A long transaction holds the feed back (not other writes)
// until it ends.
import type { PostgresMigration } from '@platform/db/postgres-migrate';
import { feedFunction, feedTriggers, type Bump } from './0006-changes-feed';

/** Records a change of every key the select yields under the writing transaction's number. */
const transactionBump: Bump = (kind, select) =>
  `INSERT INTO feed_changes (kind, key, seq) SELECT '${kind}', s.k, feed_number() FROM (${select}) AS s WHERE s.k IS NOT NULL
    ON CONFLICT (kind, key) DO UPDATE SET seq = GREATEST(feed_changes.seq, excluded.seq);`;

export const postgresMigration0010: PostgresMigration = {
  version: 10,
  name: 'feed-bounds',
  sql: `
    CREATE FUNCTION feed_number() RETURNS bigint LANGUAGE sql VOLATILE AS $$
      SELECT seq + pg_current_xact_id()::text::bigint FROM feed_sequence WHERE id = 1
    $$;
    ${feedTriggers(transactionBump)
      .map((t) => feedFunction(t, true))
      .join('\n')}
    CREATE VIEW feed_bounds AS
      WITH s AS (
        SELECT pg_current_snapshot() AS snap, f.seq AS base, (SELECT oid FROM pg_database WHERE datname = current_database()) AS here
        FROM feed_sequence f WHERE f.id = 1
      )
      SELECT s.base + pg_snapshot_xmax(s.snap)::text::bigint - 1 AS last_number,
        s.base + COALESCE(
          (SELECT min(x::text::bigint) FROM pg_snapshot_xip(s.snap) AS x
           WHERE NOT EXISTS (SELECT 1 FROM pg_stat_activity a
             WHERE a.datid <> s.here AND a.backend_xid::text::bigint = x::text::bigint % 4294967296)),
          pg_snapshot_xmax(s.snap)::text::bigint) AS final_below
      FROM s;
  `,
};
