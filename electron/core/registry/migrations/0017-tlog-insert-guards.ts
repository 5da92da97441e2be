// Migration 0014 made the transparency log's tables refuse UPDATE and DELETE, but SQLite's INSERT OR
// REPLACE deletes a conflicting row without firing DELETE triggers (as 0012 found for the ledger):
// a leaf, a signed checkpoint, the log's key or its head could be rewritten in place. A BEFORE INSERT
// guard on each now stops an insert whose key is taken. The leaves and the head are never inserted
// twice by the registry, so a second one is refused loudly; the key and the checkpoints are
// inserted with ON CONFLICT DO NOTHING by processes that race to store the first one, so a second
// insert is skipped (RAISE(IGNORE)) and the stored row stays, whatever its conflict clause asked.
// PostgreSQL has no REPLACE (an upsert's update fires the row triggers): its version 17 is reserved.
import type { Migration } from '@platform/db/migrate';

/** Each log table, the condition that a new row would replace a stored one, and what a second insert gets. */
export const TLOG_INSERT_GUARDS: readonly { table: string; taken: string; action: string }[] = [
  {
    table: 'tlog_leaves',
    taken: 'idx = NEW.idx OR (kind = NEW.kind AND ref = NEW.ref)',
    action: "ABORT, 'the transparency log is append-only'",
  },
  { table: 'tlog_head', taken: 'one = NEW.one', action: "ABORT, 'the transparency log is append-only'" },
  { table: 'tlog_checkpoints', taken: 'size = NEW.size', action: 'IGNORE' },
  { table: 'tlog_key', taken: 'one = NEW.one', action: 'IGNORE' },
];

export const migration0017: Migration = {
  version: 17,
  name: 'tlog-insert-guards',
  up(db) {
    db.exec(
      TLOG_INSERT_GUARDS.map(
        ({ table, taken, action }) => `
      CREATE TRIGGER IF NOT EXISTS ${table}_append_only_replace BEFORE INSERT ON ${table}
        WHEN EXISTS (SELECT 1 FROM ${table} WHERE ${taken})
        BEGIN SELECT RAISE(${action}); END;`,
      ).join('\n'),
    );
  },
};
