// migrations/0007-ledger-trail.ts on PostgreSQL: a cancellation's reason beside its movement and the
// audit entry that made each movement, both append-only like the ledger and the audit log (UPDATE,
// DELETE and TRUNCATE refused), and a credit's movements in ledger order.
import type { PostgresMigration } from '@platform/db/postgres-migrate';

export const postgresMigration0007: PostgresMigration = {
  version: 7,
  name: 'ledger-trail',
  sql: `
    CREATE TABLE cancellation_reasons (
      movement_id BIGINT PRIMARY KEY REFERENCES movements (id),
      reason      TEXT COLLATE "C" NOT NULL CHECK (length(trim(reason)) > 0)
    );
    CREATE TABLE movement_audit (
      movement_id BIGINT PRIMARY KEY REFERENCES movements (id),
      audit_seq   BIGINT NOT NULL REFERENCES audit_log (seq)
    );
    CREATE INDEX movements_by_credit_in_order ON movements (credit_id, id);
    CREATE TRIGGER cancellation_reasons_append_only BEFORE UPDATE OR DELETE ON cancellation_reasons
      FOR EACH ROW EXECUTE FUNCTION refuse_change('the ledger is append-only');
    CREATE TRIGGER cancellation_reasons_append_only_truncate BEFORE TRUNCATE ON cancellation_reasons
      FOR EACH STATEMENT EXECUTE FUNCTION refuse_change('the ledger is append-only');
    CREATE TRIGGER movement_audit_append_only BEFORE UPDATE OR DELETE ON movement_audit
      FOR EACH ROW EXECUTE FUNCTION refuse_change('the audit log is append-only');
    CREATE TRIGGER movement_audit_append_only_truncate BEFORE TRUNCATE ON movement_audit
      FOR EACH STATEMENT EXECUTE FUNCTION refuse_change('the audit log is append-only');
  `,
};
