// On SQLite the transparency log's size is the largest leaf index plus one, read from the leaves'
// own primary key, instead of the one-row `tlog_head` that every logged write updated. SQLite lets one
// transaction write at a time, so the head row ordered nothing that the write lock did not already;
// what it cost was one more page in the write-ahead log per write (bench/README.md, issue 29). The
// head is dropped, with its guard triggers; the leaves keep theirs. A head that disagrees with the
// leaves (a damaged or tampered file) stops the migration, which then changes nothing.
// PostgreSQL keeps its head: there its row lock is what queues the appends of several processes.
import { sql } from 'kysely';
import type { Migration } from '@platform/db/migrate';
import { SqliteDatabase } from '@platform/db/database';

/** The log's size as migration 0014's head says, and as the leaves say (count, and largest index + 1). */
const SIZES = sql<{ head: number | null; count: number; next: number }>`
  SELECT (SELECT size FROM tlog_head WHERE one = 1) AS head, COUNT(*) AS count, COALESCE(MAX(idx) + 1, 0) AS next
  FROM tlog_leaves`;

export const migration0018: Migration = {
  version: 18,
  name: 'tlog-head-from-leaves',
  up(db) {
    const { head, count, next } = new SqliteDatabase(db).first(SIZES)!;
    if (head !== count || count !== next)
      throw new Error(
        `the transparency log's head says ${head} leaves but ${count} are stored, numbered up to ${next - 1}: ` +
          'the database is damaged or was changed by hand (check it with `npm run admin -- verify-log`)',
      );
    // DROP TABLE fires no DELETE trigger; it drops the head's triggers with it
    db.exec('DROP TABLE tlog_head');
  },
};
