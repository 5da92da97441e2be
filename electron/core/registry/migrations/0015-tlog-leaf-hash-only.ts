// The transparency log keeps each leaf's hash only, not its bytes: the bytes are the canonical
// encoding of the movement or audit row the leaf names, encoded again from that row whenever they
// are served (/transparency/v1/leaves) or checked (`admin verify-log`), so storing them too only
// doubled what every ledger write wrote (bench/README.md, issue 29). Leaves and hashes are unchanged.
import type { Migration } from '@platform/db/migrate';

export const migration0015: Migration = {
  version: 15,
  name: 'tlog-leaf-hash-only',
  up(db) {
    db.exec('ALTER TABLE tlog_leaves DROP COLUMN data');
  },
};
