// migrations/0020-tlog-append-function.ts on PostgreSQL: four cuts in what every logged write costs
// the database (bench/README.md, issue 29), the log's guarantees kept.
// - `tlog_append(leaves)` appends a transaction's leaves (a JSON array of [kind, ref, hash in hex], in
//   the order their rows were written) in one call. PL/pgSQL keeps the plans of its two statements per
//   connection, so a write no longer parses and plans the append afresh (it is sent with the COMMIT,
//   its values inlined, so it could never be a prepared statement). The head row's lock, taken by its
//   UPDATE and held to the commit right after, still queues the appends of every process in commit
//   order. Without a head row it fails, and so does the write.
// - The head's guard runs after the update instead of before it: a BEFORE row trigger locks the row
//   once more (a WAL record per write) before it is updated anyway. A smaller size or a DELETE is
//   refused all the same, by the same function, before the statement ends.
// - The leaves lose their UNIQUE (kind, ref) index, as on SQLite at 0019: audit ids are random UUIDs,
//   so each write touched a random page of it, a full page image in the WAL once per checkpoint
//   cycle. A record's leaf is found through `tlog_refs`, filled from the leaves here and at each
//   signed checkpoint (transparency/refs.ts). A record logged twice (only a hand-made insert can do
//   it) is no longer refused at insert; `admin verify-log` reports it.
// - A leaf's hash is kept as its 32 bytes instead of 64 hex digits: half the bytes per leaf in the
//   table and the WAL. The same hashes, converted in place (nothing is hashed again); the registry
//   reads them back as hex (transparency/tree.ts), as SQLite keeps them.
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
    CREATE TRIGGER tlog_head_grows AFTER UPDATE OR DELETE ON tlog_head FOR EACH ROW EXECUTE FUNCTION tlog_head_grows();
    CREATE TABLE tlog_refs (
      idx  BIGINT PRIMARY KEY,
      kind TEXT COLLATE "C" NOT NULL,
      ref  TEXT COLLATE "C" NOT NULL,
      UNIQUE (kind, ref)
    );
    INSERT INTO tlog_refs (idx, kind, ref) SELECT idx, kind, ref FROM tlog_leaves ORDER BY idx;
    ALTER TABLE tlog_leaves DROP CONSTRAINT tlog_leaves_kind_ref_key;
    ALTER TABLE tlog_leaves DROP CONSTRAINT tlog_leaves_hash_check;
    ALTER TABLE tlog_leaves ALTER COLUMN hash TYPE bytea USING decode(hash, 'hex');
    ALTER TABLE tlog_leaves ADD CONSTRAINT tlog_leaves_hash_check CHECK (length(hash) = 32);
  `,
};
