// A finalize signature is single-use (issue 11, item 5; compatibility.md): the signed message names
// no retirement, so without a record one signature, replayed by anyone who saw it, finalized the
// wallet's next retirement of the same token. Each used signature's sha256 (of its canonical form)
// is kept with the retirement it finalized; the primary key makes a second use impossible.
import type { Migration } from '@platform/db/migrate';

export const migration0004: Migration = {
  version: 4,
  name: 'used-signatures',
  up(db) {
    db.exec(`
      CREATE TABLE used_signatures (
        digest        TEXT PRIMARY KEY CHECK (length(digest) = 64),
        retirement_id TEXT NOT NULL UNIQUE REFERENCES retirements (id),
        used_at       INTEGER NOT NULL
      ) STRICT;
    `);
  },
};
