// Each account's total over all its credits (issue 32, item 8): the ledger caps it at nine billion
// tonnes (ledger.ts, MAX_ACCOUNT_GRAMS), and checking that on every movement must not sum every
// balance of an account that holds thousands of credits (the registry's buffer). Kept like the
// balances: by triggers on `movements`, in the movement's own statement, so it cannot disagree.
import type { Migration } from '@platform/db/migrate';

export const migration0016: Migration = {
  version: 16,
  name: 'account-totals',
  up(db) {
    db.exec(`
      CREATE TABLE account_totals (
        account_id TEXT PRIMARY KEY REFERENCES accounts (id),
        total      INTEGER NOT NULL CHECK (total >= 0)
      ) STRICT, WITHOUT ROWID;
      INSERT INTO account_totals (account_id, total) SELECT account_id, SUM(amount) FROM balances GROUP BY account_id;
      CREATE TRIGGER movements_account_total_in AFTER INSERT ON movements WHEN NEW.to_account IS NOT NULL
        BEGIN
          INSERT INTO account_totals (account_id, total) VALUES (NEW.to_account, NEW.amount)
            ON CONFLICT (account_id) DO UPDATE SET total = total + excluded.total;
        END;
      CREATE TRIGGER movements_account_total_out AFTER INSERT ON movements WHEN NEW.from_account IS NOT NULL
        BEGIN
          UPDATE account_totals SET total = total - NEW.amount WHERE account_id = NEW.from_account;
        END;
    `);
  },
};
