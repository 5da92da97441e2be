// On SQLite the transparency log's leaves lose their UNIQUE (kind, ref) index, which every logged
// write paid for with index pages in the write-ahead log (two per write, one per kind: audit ids are
// random UUIDs; bench/README.md, issue 29). What it served, finding a record's leaf, is served by
// `tlog_refs`: the same (kind, ref) → index, filled in bulk when a checkpoint is signed and looked up
// together with the few leaves written since (transparency/refs.ts). It is derived from the leaves
// and never trusted for a proof: a leaf it names is served with its bytes, which a verifier checks.
// SQLite cannot drop a table constraint, so the leaves are copied into a new table (same columns,
// same rows) and their three guard triggers made again; the replace guard now checks the index only
// (a (kind, ref) check would scan every leaf per insert). A record logged twice is refused at
// insert no longer but reported by `admin verify-log`. PostgreSQL keeps its index: its 0019 is empty.
import type { Migration } from '@platform/db/migrate';

const APPEND_ONLY = "SELECT RAISE(ABORT, 'the transparency log is append-only')";

export const migration0019: Migration = {
  version: 19,
  name: 'tlog-refs-at-checkpoint',
  up(db) {
    db.exec(`
      ALTER TABLE tlog_leaves RENAME TO tlog_leaves_0018;
      CREATE TABLE tlog_leaves (
        idx  INTEGER PRIMARY KEY CHECK (idx >= 0),
        kind TEXT NOT NULL CHECK (kind IN ('movement', 'audit')),
        ref  TEXT NOT NULL,
        hash TEXT NOT NULL CHECK (length(hash) = 64)
      ) STRICT;
      INSERT INTO tlog_leaves (idx, kind, ref, hash) SELECT idx, kind, ref, hash FROM tlog_leaves_0018 ORDER BY idx;
      DROP TABLE tlog_leaves_0018;
      CREATE TRIGGER tlog_leaves_append_only_update BEFORE UPDATE ON tlog_leaves BEGIN ${APPEND_ONLY}; END;
      CREATE TRIGGER tlog_leaves_append_only_delete BEFORE DELETE ON tlog_leaves BEGIN ${APPEND_ONLY}; END;
      CREATE TRIGGER tlog_leaves_append_only_replace BEFORE INSERT ON tlog_leaves
        WHEN EXISTS (SELECT 1 FROM tlog_leaves WHERE idx = NEW.idx)
        BEGIN ${APPEND_ONLY}; END;
      CREATE TABLE tlog_refs (
        idx  INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        ref  TEXT NOT NULL
      ) STRICT;
      CREATE UNIQUE INDEX tlog_refs_by_ref ON tlog_refs (kind, ref);
      INSERT INTO tlog_refs (idx, kind, ref) SELECT idx, kind, ref FROM tlog_leaves ORDER BY idx;
    `);
  },
};
