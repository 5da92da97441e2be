// The changes feed reads its bounds from one view on both engines: the highest number handed out
// (a cursor beyond it was not made here) and the number below which every change is final (no
// transaction still open can commit a change numbered lower). On SQLite the single writer commits in
// number order, so every number taken is final; PostgreSQL's twin numbers changes by transaction
// (postgres/0010-feed-bounds.ts), where the two differ.
import type { Migration } from '@platform/db/migrate';

export const migration0010: Migration = {
  version: 10,
  name: 'feed-bounds',
  up(db) {
    db.exec(`CREATE VIEW feed_bounds AS SELECT seq AS last_number, seq + 1 AS final_below FROM feed_sequence WHERE id = 1`);
  },
};
