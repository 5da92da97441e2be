// The transparency log (issue 29, docs/transparency.md): its leaves (every movement and audit entry,
// in commit order), the one-row tree head whose lock orders appends, the signed checkpoints and the
// signing key (kept in the database so a backup carries it). Leaves and checkpoints are append-only
// like the ledger. The rows written before this version are appended now, in time order.
import type { Migration } from '@platform/db/migrate';
import { SqliteDatabase } from '@platform/db/database';
import { backfillLeaves } from '../transparency/backfill';

export const migration0014: Migration = {
  version: 14,
  name: 'transparency-log',
  up(db) {
    db.exec(`
      CREATE TABLE tlog_head (
        one  INTEGER PRIMARY KEY CHECK (one = 1),
        size INTEGER NOT NULL CHECK (size >= 0)
      ) STRICT;
      INSERT INTO tlog_head (one, size) VALUES (1, 0);
      CREATE TABLE tlog_leaves (
        idx  INTEGER PRIMARY KEY CHECK (idx >= 0),
        kind TEXT NOT NULL CHECK (kind IN ('movement', 'audit')),
        ref  TEXT NOT NULL,
        data TEXT NOT NULL,
        hash TEXT NOT NULL CHECK (length(hash) = 64),
        UNIQUE (kind, ref)
      ) STRICT;
      CREATE TABLE tlog_checkpoints (
        size INTEGER PRIMARY KEY CHECK (size >= 0),
        root TEXT NOT NULL,
        at   INTEGER NOT NULL,
        note TEXT NOT NULL
      ) STRICT;
      CREATE TABLE tlog_key (
        one         INTEGER PRIMARY KEY CHECK (one = 1),
        name        TEXT NOT NULL,
        public_key  TEXT NOT NULL,
        private_key TEXT NOT NULL,
        created_at  INTEGER NOT NULL
      ) STRICT;
      CREATE TRIGGER tlog_head_no_delete BEFORE DELETE ON tlog_head
        BEGIN SELECT RAISE(ABORT, 'the transparency log is append-only'); END;
      CREATE TRIGGER tlog_head_grows BEFORE UPDATE ON tlog_head WHEN NEW.size < OLD.size
        BEGIN SELECT RAISE(ABORT, 'the transparency log is append-only'); END;
      CREATE TRIGGER tlog_leaves_append_only_update BEFORE UPDATE ON tlog_leaves
        BEGIN SELECT RAISE(ABORT, 'the transparency log is append-only'); END;
      CREATE TRIGGER tlog_leaves_append_only_delete BEFORE DELETE ON tlog_leaves
        BEGIN SELECT RAISE(ABORT, 'the transparency log is append-only'); END;
      CREATE TRIGGER tlog_checkpoints_append_only_update BEFORE UPDATE ON tlog_checkpoints
        BEGIN SELECT RAISE(ABORT, 'the transparency log is append-only'); END;
      CREATE TRIGGER tlog_checkpoints_append_only_delete BEFORE DELETE ON tlog_checkpoints
        BEGIN SELECT RAISE(ABORT, 'the transparency log is append-only'); END;
      CREATE TRIGGER tlog_key_append_only_update BEFORE UPDATE ON tlog_key
        BEGIN SELECT RAISE(ABORT, 'the transparency key is never replaced'); END;
      CREATE TRIGGER tlog_key_append_only_delete BEFORE DELETE ON tlog_key
        BEGIN SELECT RAISE(ABORT, 'the transparency key is never replaced'); END;
    `);
    backfillLeaves(new SqliteDatabase(db));
  },
};
