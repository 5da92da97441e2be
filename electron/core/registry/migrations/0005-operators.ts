// The registry's back office: operator accounts (account managers, each with a role and an RSA
// public key), their opaque tokens (only the SHA-256 hash is stored), the audit log (append-only:
// the database refuses UPDATE and DELETE, as it does for the ledger) and the answers of idempotent
// operator writes (kept 24 hours, keyed by operator and Idempotency-Key).
import type { Migration } from '@platform/db/migrate';

export const migration0005: Migration = {
  version: 5,
  name: 'operators',
  up(db) {
    db.exec(`
      CREATE TABLE operators (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('viewer', 'manager', 'administrator')),
        public_key_pem TEXT NOT NULL,
        active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );

      CREATE TABLE operator_tokens (
        id TEXT PRIMARY KEY,
        token_hash TEXT NOT NULL UNIQUE,
        operator_id TEXT NOT NULL REFERENCES operators (id),
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX operator_tokens_expiry ON operator_tokens (expires_at);

      -- One row per write attempt that passed authentication (and per CLI action). target_ids is a
      -- JSON array; detail a JSON object without secrets. seq orders entries (newest first = highest).
      CREATE TABLE audit_log (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        at INTEGER NOT NULL,
        operator_id TEXT,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        target_ids TEXT NOT NULL DEFAULT '[]',
        outcome TEXT NOT NULL CHECK (outcome IN ('succeeded', 'refused', 'failed')),
        detail TEXT NOT NULL DEFAULT '{}'
      );
      CREATE TABLE audit_targets (
        seq INTEGER NOT NULL REFERENCES audit_log (seq),
        target_id TEXT NOT NULL,
        PRIMARY KEY (target_id, seq)
      ) WITHOUT ROWID;
      CREATE INDEX audit_log_operator ON audit_log (operator_id, seq);
      CREATE INDEX audit_log_action ON audit_log (action, seq);
      CREATE INDEX audit_log_at ON audit_log (at);
      CREATE TRIGGER audit_log_append_only_update BEFORE UPDATE ON audit_log
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
      CREATE TRIGGER audit_log_append_only_delete BEFORE DELETE ON audit_log
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
      CREATE TRIGGER audit_targets_append_only_update BEFORE UPDATE ON audit_targets
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
      CREATE TRIGGER audit_targets_append_only_delete BEFORE DELETE ON audit_targets
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;

      CREATE TABLE idempotency_keys (
        operator_id TEXT NOT NULL REFERENCES operators (id),
        key TEXT NOT NULL,
        request_hash TEXT NOT NULL,
        status INTEGER NOT NULL,
        answer TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (operator_id, key)
      );
      CREATE INDEX idempotency_keys_age ON idempotency_keys (created_at);
    `);
  },
};
