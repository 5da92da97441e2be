// The ledger's trail: why a cancellation was made (its reason, kept beside its movement) and which
// audit entry made each movement (written with the entry, in the transaction of the change), so a
// credit's history answers "where did these tonnes go, and who moved them?". Both append-only, like
// the ledger and the audit log they point at. Movements made before this version (or by apps'
// reservations, which are not operator writes) simply have no row here. An index walks one credit's
// movements in ledger order.
import type { Migration } from '@platform/db/migrate';

export const migration0007: Migration = {
  version: 7,
  name: 'ledger-trail',
  up(db) {
    db.exec(`
      CREATE TABLE cancellation_reasons (
        movement_id INTEGER PRIMARY KEY REFERENCES movements (id),
        reason      TEXT NOT NULL CHECK (length(trim(reason)) > 0)
      ) STRICT;
      CREATE TABLE movement_audit (
        movement_id INTEGER PRIMARY KEY REFERENCES movements (id),
        audit_seq   INTEGER NOT NULL REFERENCES audit_log (seq)
      ) STRICT;
      -- a credit's movements in ledger order, one page after another
      CREATE INDEX movements_by_credit_in_order ON movements (credit_id, id);
      CREATE TRIGGER cancellation_reasons_append_only_update BEFORE UPDATE ON cancellation_reasons
        BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
      CREATE TRIGGER cancellation_reasons_append_only_delete BEFORE DELETE ON cancellation_reasons
        BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
      CREATE TRIGGER movement_audit_append_only_update BEFORE UPDATE ON movement_audit
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
      CREATE TRIGGER movement_audit_append_only_delete BEFORE DELETE ON movement_audit
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
    `);
  },
};
