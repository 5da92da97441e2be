// The back office's offline copy (connections with an operator account):
// - bo_answers: the last answer of each operator read, keyed by its request (endpoint, path
//   parameters, query: back-office/store.ts requestKey), answering the same read offline;
// - bo_audit: the audit log's entries, newest first by `ord` (the order the registry listed them:
//   each sync appends what is newer than the newest kept), for filtering offline like the registry;
// - bo_credits and bo_ledger: each credit's ledger movements, re-read only for credits whose
//   balances changed since (`balances_hash`); indexed by account for an organization's movements.
import type { Migration } from '@platform/db/migrate';

export const migration0005: Migration = {
  version: 5,
  name: 'back-office',
  up(db) {
    db.exec(`
      CREATE TABLE bo_answers (
        key TEXT PRIMARY KEY,
        endpoint TEXT NOT NULL,
        call_json TEXT NOT NULL,
        json TEXT NOT NULL,
        fetched_at INTEGER NOT NULL
      ) WITHOUT ROWID;

      CREATE TABLE bo_audit (
        id TEXT PRIMARY KEY,
        ord INTEGER NOT NULL UNIQUE,
        at_ms INTEGER NOT NULL,
        operator_id TEXT,
        action TEXT NOT NULL,
        outcome TEXT NOT NULL,
        json TEXT NOT NULL
      );
      CREATE TABLE bo_audit_targets (
        target_id TEXT NOT NULL,
        ord INTEGER NOT NULL REFERENCES bo_audit (ord),
        PRIMARY KEY (target_id, ord)
      ) WITHOUT ROWID;

      CREATE TABLE bo_credits (
        id TEXT PRIMARY KEY,
        serialization TEXT NOT NULL,
        balances_hash TEXT NOT NULL,
        json TEXT NOT NULL,
        fetched_at INTEGER NOT NULL
      );
      CREATE INDEX bo_credits_serialization ON bo_credits (serialization);

      CREATE TABLE bo_ledger (
        id INTEGER PRIMARY KEY,
        credit_id TEXT NOT NULL REFERENCES bo_credits (id),
        at TEXT NOT NULL,
        kind TEXT NOT NULL,
        from_account_id TEXT,
        to_account_id TEXT,
        amount_grams INTEGER NOT NULL,
        reference TEXT
      );
      CREATE INDEX bo_ledger_credit ON bo_ledger (credit_id, id);
      CREATE INDEX bo_ledger_from ON bo_ledger (from_account_id, id) WHERE from_account_id IS NOT NULL;
      CREATE INDEX bo_ledger_to ON bo_ledger (to_account_id, id) WHERE to_account_id IS NOT NULL;
    `);
  },
};
