// migrations/0016-account-totals.ts on PostgreSQL: each account's total over all its credits, kept by
// a trigger on `movements` in the movement's own statement, like the balances.
import type { PostgresMigration } from '@platform/db/postgres-migrate';

export const postgresMigration0016: PostgresMigration = {
  version: 16,
  name: 'account-totals',
  sql: `
    CREATE TABLE account_totals (
      account_id TEXT COLLATE "C" PRIMARY KEY REFERENCES accounts (id),
      total      BIGINT NOT NULL CHECK (total >= 0)
    );
    INSERT INTO account_totals (account_id, total) SELECT account_id, SUM(amount) FROM balances GROUP BY account_id;
    CREATE FUNCTION movements_move_account_totals() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.from_account IS NOT NULL THEN
          UPDATE account_totals SET total = total - NEW.amount WHERE account_id = NEW.from_account;
        END IF;
        IF NEW.to_account IS NOT NULL THEN
          INSERT INTO account_totals (account_id, total) VALUES (NEW.to_account, NEW.amount)
            ON CONFLICT (account_id) DO UPDATE SET total = account_totals.total + excluded.total;
        END IF;
        RETURN NULL;
      END
    $$;
    CREATE TRIGGER movements_account_totals AFTER INSERT ON movements
      FOR EACH ROW EXECUTE FUNCTION movements_move_account_totals();
  `,
};
