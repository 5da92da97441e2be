// migrations/0020-tlog-append-function.ts on PostgreSQL: three cuts in what every logged write costs
// the database (bench/README.md, issue 29), the log's guarantees kept.
// - `tlog_append(leaves)` appends a transaction's leaves (a JSON array of [kind, ref, hash in hex], in
//   the order their rows were written) in one call. PL/pgSQL keeps the plans of its two statements per
//   connection, so a write no longer parses and plans the append afresh (it is sent with the COMMIT,
//   its values inlined, so it could never be a prepared statement). The head row's lock, taken by its
//   UPDATE and held to the commit right after, still queues the appends of every process in commit
//   order. Without a head row it fails, and so does the write.
// - The head's guard on UPDATE runs after the update, and only when the size shrank, instead of
//   before every update: a BEFORE row trigger locked the row once more (a WAL record per write) and
//   ran its function each time. A smaller size is refused all the same, before the statement ends;
//   a DELETE by a trigger of its own, `tlog_head_no_delete` (a guard `admin check` looks for).
// - A leaf's hash is kept as its 32 bytes instead of 64 hex digits: half the bytes per leaf in the
//   table and the WAL. The same hashes, converted in place (nothing is hashed again); the registry
//   reads them back as hex (transparency/tree.ts), as SQLite keeps them.
// The leaves keep their UNIQUE (kind, ref) index, unlike SQLite's at 0019: PostgreSQL's WAL records
// every row, not every page, so indexing the records at each checkpoint (SQLite's tlog_refs) was
// measured to write more than the index does (bench/README.md).
import type { PostgresMigration } from '@platform/db/postgres-migrate';

export const postgresMigration0020: PostgresMigration = {
  version: 20,
  name: 'tlog-append-function',
  sql: `
    CREATE FUNCTION tlog_append(leaves jsonb) RETURNS bigint LANGUAGE plpgsql AS $$
      DECLARE
        n bigint := jsonb_array_length(leaves);
        last bigint;
      BEGIN
        UPDATE tlog_head SET size = size + n WHERE one = 1 RETURNING size INTO last;
        IF last IS NULL THEN
          RAISE EXCEPTION 'the transparency log has no head row (migration 0014)';
        END IF;
        INSERT INTO tlog_leaves (idx, kind, ref, hash)
          SELECT last - n + e.ord - 1, e.leaf ->> 0, e.leaf ->> 1, decode(e.leaf ->> 2, 'hex')
          FROM jsonb_array_elements(leaves) WITH ORDINALITY AS e(leaf, ord);
        RETURN last;
      END $$;
    DROP TRIGGER tlog_head_grows ON tlog_head;
    CREATE TRIGGER tlog_head_grows AFTER UPDATE ON tlog_head FOR EACH ROW WHEN (NEW.size < OLD.size) EXECUTE FUNCTION tlog_head_grows();
    CREATE TRIGGER tlog_head_no_delete BEFORE DELETE ON tlog_head FOR EACH ROW EXECUTE FUNCTION tlog_head_grows();
    ALTER TABLE tlog_leaves DROP CONSTRAINT tlog_leaves_hash_check;
    ALTER TABLE tlog_leaves ALTER COLUMN hash TYPE bytea USING decode(hash, 'hex');
    ALTER TABLE tlog_leaves ADD CONSTRAINT tlog_leaves_hash_check CHECK (length(hash) = 32);
  `,
};
