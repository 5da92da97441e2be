// The registry accounts' credits one row each (they were one JSON blob per account: at scale 100 the
// buffer alone was 21 MB, parsed whole for every view and written whole by every sync):
// - inventory_credits: one row per (account, credit) with the columns the list shows, filters and
//   sorts on, the credit's JSON, and its row hash (a re-sync writes only credits that changed);
// - one index per sort, each starting with the account and ending its order with the credit id
//   (one order, so offset paging neither repeats nor skips), carrying the filter columns (vintage,
//   type) and what text is checked on (serialization, project name), so filtering, counting and
//   skipping to a deep offset read the index, never the wide rows;
// - search: one FTS5 table per account over project name and number (word-prefix search as for
//   projects and retirements), with each credit's vintage and type as tokens of a third column, so
//   text with filters is matched and counted inside FTS5 without reading a row; serializations by
//   prefix on their own index (case-insensitive): a prefix such as `RDR-AUS` matches most of an
//   account, which an index range walks and counts in a millisecond where an FTS match set would
//   be built row by row;
// - `inventories` keeps one row per account: the summary and organization (no credits), the hash of
//   the registry's answer as last synced (an unchanged answer is skipped unparsed) and the count.
// An existing cache is converted here: each blob's credits become rows and the blob is rewritten
// without them.
import type { Migration } from '@platform/db/migrate';
import { hashJson } from '../rows';

// The schema as this step made it (the live code's copies are in desk/resources/inventories/fts.ts).
const ACCOUNTS = ['buffer', 'adjustment', 'organization'] as const;
const FTS_COLUMNS = 'project, num, facets';
const FTS_VALUES = `project_name, project_num, 'v' || hex(vintage) || ' t' || hex(type)`;

export const migration0004: Migration = {
  version: 4,
  name: 'inventory-credits',
  up(db) {
    db.exec(`
      CREATE TABLE inventory_credits (
        account TEXT NOT NULL CHECK (account IN ('buffer', 'adjustment', 'organization')),
        id TEXT NOT NULL,
        project_id TEXT NOT NULL,
        project_name TEXT NOT NULL,
        project_num TEXT NOT NULL,
        serialization TEXT NOT NULL,
        vintage TEXT NOT NULL,
        type TEXT NOT NULL,
        amount REAL NOT NULL,
        supply REAL NOT NULL,
        unit TEXT NOT NULL,
        token_id TEXT NOT NULL,
        token_address TEXT NOT NULL,
        row_hash TEXT NOT NULL,
        json TEXT NOT NULL,
        UNIQUE (account, id)
      );
      -- Serializations compare without case (a typed prefix matches either). Right after the vintage
      -- or type, so a filter and a serialization prefix together are one range.
      CREATE INDEX inventory_credits_by_project ON inventory_credits (account, project_name COLLATE NOCASE, serialization COLLATE NOCASE, id, vintage, type);
      CREATE INDEX inventory_credits_by_serialization ON inventory_credits (account, serialization COLLATE NOCASE, id, vintage, type, project_name COLLATE NOCASE);
      CREATE INDEX inventory_credits_by_vintage ON inventory_credits (account, vintage, serialization COLLATE NOCASE, id, type, project_name COLLATE NOCASE);
      CREATE INDEX inventory_credits_by_type ON inventory_credits (account, type, serialization COLLATE NOCASE, id, vintage, project_name COLLATE NOCASE);
      CREATE INDEX inventory_credits_by_amount ON inventory_credits (account, amount, serialization COLLATE NOCASE, id, vintage, type, project_name COLLATE NOCASE);
      CREATE INDEX inventory_credits_by_supply ON inventory_credits (account, supply, serialization COLLATE NOCASE, id, vintage, type, project_name COLLATE NOCASE);
      -- The project filter: a project's credits are few, read by this index and sorted.
      CREATE INDEX inventory_credits_by_project_id ON inventory_credits (account, project_id, vintage, type);

      -- Credits of a changed account collected during a sync, swapped in at its end (json NULL: the
      -- cached row is unchanged, only its presence counts). Rows are appended in rowid order and
      -- found by the small unique index: staging a 20 MB answer this way takes a third of the time
      -- of the list resources' staging table, whose WITHOUT ROWID rows of JSON split pages at
      -- every insert.
      CREATE TABLE inventory_staging (
        account TEXT NOT NULL,
        id TEXT NOT NULL,
        row_hash TEXT NOT NULL,
        json TEXT
      );
      CREATE UNIQUE INDEX inventory_staging_by_id ON inventory_staging (account, id);
    `);
    for (const account of ACCOUNTS) {
      db.exec(`
        CREATE VIRTUAL TABLE inventory_${account}_fts USING fts5 (
          ${FTS_COLUMNS},
          tokenize = 'unicode61 remove_diacritics 2',
          prefix = '1 2 3'
        );
      `);
    }

    // Convert what a version-3 cache holds. Each credit keeps the JSON text it had in the blob and
    // gets the hash a sync computes for it, so the next sync rewrites only what really changed.
    // Only well-formed credits move (a credit without one of the columns would break NOT NULL);
    // the blob of an account whose JSON is unreadable is dropped and read again by the next sync.
    db.function('desk_row_hash', { deterministic: true }, (json: unknown) => hashJson(String(json)));
    db.exec(`
      DELETE FROM inventories WHERE NOT json_valid(json);
      INSERT OR IGNORE INTO inventory_credits (account, id, project_id, project_name, project_num, serialization, vintage, type,
          amount, supply, unit, token_id, token_address, row_hash, json)
        SELECT i.account, c.value ->> '$.id', c.value ->> '$.project.id', c.value ->> '$.project.fullName', c.value ->> '$.project.num',
          c.value ->> '$.serialization', c.value ->> '$.vintage', c.value ->> '$.type', c.value ->> '$.amount', c.value ->> '$.supply',
          c.value ->> '$.unit', c.value ->> '$.tokenId', c.value ->> '$.tokenAddress', desk_row_hash(c.value), c.value
        FROM inventories i, json_each(i.json, '$.credits') c
        WHERE c.type = 'object'
          AND json_type(c.value, '$.id') = 'text' AND json_type(c.value, '$.project.id') = 'text'
          AND json_type(c.value, '$.project.fullName') = 'text' AND json_type(c.value, '$.project.num') = 'text'
          AND json_type(c.value, '$.serialization') = 'text' AND json_type(c.value, '$.vintage') = 'text'
          AND json_type(c.value, '$.type') = 'text' AND json_type(c.value, '$.amount') IN ('integer', 'real')
          AND json_type(c.value, '$.supply') IN ('integer', 'real') AND json_type(c.value, '$.unit') = 'text'
          AND json_type(c.value, '$.tokenId') = 'text' AND json_type(c.value, '$.tokenAddress') = 'text';

      ALTER TABLE inventories ADD COLUMN answer_hash TEXT;
      ALTER TABLE inventories ADD COLUMN credit_count INTEGER NOT NULL DEFAULT 0;
      UPDATE inventories SET
        json = json_remove(json, '$.credits'),
        credit_count = (SELECT count(*) FROM inventory_credits c WHERE c.account = inventories.account);
    `);
    // The account names are this file's constants (they name the tables too), so they are written
    // into the SQL as literals rather than bound: a migration runs through exec, never prepare.
    for (const account of ACCOUNTS) {
      db.exec(
        `INSERT INTO inventory_${account}_fts (rowid, ${FTS_COLUMNS}) SELECT rowid, ${FTS_VALUES} FROM inventory_credits WHERE account = '${account}'`,
      );
    }
    db.exec('ANALYZE inventory_credits');
  },
};
