// The append-only tables refused UPDATE and DELETE, but SQLite's INSERT OR REPLACE (and REPLACE
// INTO) deletes a conflicting row without firing DELETE triggers, so an audit entry or a movement
// could be rewritten in place. A BEFORE INSERT guard on each refuses an insert whose key is taken,
// whatever its conflict clause. (A plain insert of a taken key was refused already, by the key.)
import type { Migration } from '@platform/db/migrate';

/** Each append-only table and the condition that a new row would replace a stored one. */
export const APPEND_ONLY_KEYS: readonly { table: string; taken: string; message: string }[] = [
  { table: 'movements', taken: 'id = NEW.id', message: 'the ledger is append-only' },
  { table: 'cancellation_reasons', taken: 'movement_id = NEW.movement_id', message: 'the ledger is append-only' },
  { table: 'audit_log', taken: 'seq = NEW.seq OR id = NEW.id', message: 'the audit log is append-only' },
  { table: 'audit_targets', taken: 'target_id = NEW.target_id AND seq = NEW.seq', message: 'the audit log is append-only' },
  { table: 'movement_audit', taken: 'movement_id = NEW.movement_id', message: 'the audit log is append-only' },
];

export const migration0012: Migration = {
  version: 12,
  name: 'append-only-inserts',
  up(db) {
    db.exec(
      APPEND_ONLY_KEYS.map(
        ({ table, taken, message }) => `
      CREATE TRIGGER ${table}_append_only_replace BEFORE INSERT ON ${table}
        WHEN EXISTS (SELECT 1 FROM ${table} WHERE ${taken})
        BEGIN SELECT RAISE(ABORT, '${message}'); END;`,
      ).join('\n'),
    );
  },
};
