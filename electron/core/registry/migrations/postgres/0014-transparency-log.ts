// migrations/0014-transparency-log.ts on PostgreSQL: the same tables, append-only by trigger (TRUNCATE
// included); the rows written before this version are appended by the step's `after` (the leaf
// encoding is the registry's canonical JSON, computed in TypeScript, not SQL).
import type { PostgresMigration } from '@platform/db/postgres-migrate';
import { backfillLeaves } from '@registry/transparency/backfill';

const T = 'TEXT COLLATE "C"';
const REFUSE = `refuse_change('the transparency log is append-only')`;

export const postgresMigration0014: PostgresMigration = {
  version: 14,
  name: 'transparency-log',
  sql: `
    CREATE TABLE tlog_head (
      one  BIGINT PRIMARY KEY CHECK (one = 1),
      size BIGINT NOT NULL CHECK (size >= 0)
    );
    INSERT INTO tlog_head (one, size) VALUES (1, 0);
    CREATE TABLE tlog_leaves (
      idx  BIGINT PRIMARY KEY CHECK (idx >= 0),
      kind ${T} NOT NULL CHECK (kind IN ('movement', 'audit')),
      ref  ${T} NOT NULL,
      data ${T} NOT NULL,
      hash ${T} NOT NULL CHECK (length(hash) = 64),
      UNIQUE (kind, ref)
    );
    CREATE TABLE tlog_checkpoints (
      size BIGINT PRIMARY KEY CHECK (size >= 0),
      root ${T} NOT NULL,
      at   BIGINT NOT NULL,
      note ${T} NOT NULL
    );
    CREATE TABLE tlog_key (
      one         BIGINT PRIMARY KEY CHECK (one = 1),
      name        ${T} NOT NULL,
      public_key  ${T} NOT NULL,
      private_key ${T} NOT NULL,
      created_at  BIGINT NOT NULL
    );
    CREATE FUNCTION tlog_head_grows() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' OR NEW.size < OLD.size THEN
          RAISE EXCEPTION 'the transparency log is append-only' USING ERRCODE = 'restrict_violation';
        END IF;
        RETURN NEW;
      END $$;
    CREATE TRIGGER tlog_head_grows BEFORE UPDATE OR DELETE ON tlog_head FOR EACH ROW EXECUTE FUNCTION tlog_head_grows();
    CREATE TRIGGER tlog_head_no_truncate BEFORE TRUNCATE ON tlog_head FOR EACH STATEMENT EXECUTE FUNCTION ${REFUSE};
    CREATE TRIGGER tlog_leaves_append_only BEFORE UPDATE OR DELETE ON tlog_leaves FOR EACH ROW EXECUTE FUNCTION ${REFUSE};
    CREATE TRIGGER tlog_leaves_no_truncate BEFORE TRUNCATE ON tlog_leaves FOR EACH STATEMENT EXECUTE FUNCTION ${REFUSE};
    CREATE TRIGGER tlog_checkpoints_append_only BEFORE UPDATE OR DELETE ON tlog_checkpoints FOR EACH ROW EXECUTE FUNCTION ${REFUSE};
    CREATE TRIGGER tlog_checkpoints_no_truncate BEFORE TRUNCATE ON tlog_checkpoints FOR EACH STATEMENT EXECUTE FUNCTION ${REFUSE};
    CREATE TRIGGER tlog_key_append_only BEFORE UPDATE OR DELETE ON tlog_key FOR EACH ROW EXECUTE FUNCTION ${REFUSE};
    CREATE TRIGGER tlog_key_no_truncate BEFORE TRUNCATE ON tlog_key FOR EACH STATEMENT EXECUTE FUNCTION ${REFUSE};
  `,
  after(db) {
    backfillLeaves(db);
  },
};
