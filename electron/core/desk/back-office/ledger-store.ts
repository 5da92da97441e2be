// Every credit's history as the back office last read it, kept as rows (bo_credits, its movements
// in bo_ledger: cache migration 0005) so a credit's history and an organization's movements can be
// read offline.
import { sql, type Kysely } from 'kysely';
import type { SqliteDatabase } from '@platform/db/database';
import type { CacheTables } from '@desk/cache/schema';
import type { EndpointResponse } from '@shared/registry/endpoints';

export type CreditHistory = EndpointResponse<'operatorCreditHistory'>;
export type Movement = CreditHistory['movements'][number];

/** One movement of an organization's accounts, with its credit. */
export interface AccountMovement extends Movement {
  creditId: string;
  serialization: string;
}

type Db = SqliteDatabase<CacheTables>;
type Q = Kysely<CacheTables>;
/** A movement as bo_ledger keeps it (its credit apart). */
type Ledger = Omit<CacheTables['bo_ledger'], 'credit_id'>;

const movementOf = (r: Ledger): Movement => ({
  id: r.id,
  at: r.at,
  kind: r.kind,
  fromAccountId: r.from_account_id,
  toAccountId: r.to_account_id,
  amountGrams: r.amount_grams,
  reference: r.reference,
});

const putMovement = (v: CacheTables['bo_ledger'], q: Q) =>
  q.replaceInto('bo_ledger').values({
    id: v.id,
    credit_id: v.credit_id,
    at: v.at,
    kind: v.kind,
    from_account_id: v.from_account_id,
    to_account_id: v.to_account_id,
    amount_grams: v.amount_grams,
    reference: v.reference,
  });

const LEDGER_COLUMNS = ['id', 'at', 'kind', 'from_account_id', 'to_account_id', 'amount_grams', 'reference'] as const;

/** The credit-history part of the back-office store (store.ts BackOfficeStore). */
export interface LedgerStore {
  /** The balances hash a credit's history was last read at (null: never read). */
  creditBalancesHash(creditId: string): string | null;
  putCreditHistory(history: CreditHistory, balancesHash: string, fetchedAt: number): void;
  creditHistory(query: { creditId?: string | undefined; serialization?: string | undefined }): CreditHistory | null;
  /** Movements into or out of the accounts, newest first, a page at a time, and how many in all. */
  accountMovements(accountIds: string[], offset: number, limit: number): { total: number; movements: AccountMovement[] };
}

/** Every credit's history as rows (bo_credits, its movements in bo_ledger). */
export function ledgerStore(db: Db): LedgerStore {
  return {
    creditBalancesHash(creditId) {
      return db.first(db.q.selectFrom('bo_credits').select('balances_hash').where('id', '=', creditId))?.balances_hash ?? null;
    },
    putCreditHistory(history, balancesHash, fetchedAt) {
      const { credit } = history;
      db.transaction(() => {
        db.run(
          db.q
            .insertInto('bo_credits')
            .values({
              id: credit.id,
              serialization: credit.serialization,
              balances_hash: balancesHash,
              json: JSON.stringify(credit),
              fetched_at: fetchedAt,
            })
            .onConflict((oc) =>
              oc.column('id').doUpdateSet((eb) => ({
                serialization: eb.ref('excluded.serialization'),
                balances_hash: eb.ref('excluded.balances_hash'),
                json: eb.ref('excluded.json'),
                fetched_at: eb.ref('excluded.fetched_at'),
              })),
            ),
        );
        db.run(db.q.deleteFrom('bo_ledger').where('credit_id', '=', credit.id));
        for (const m of history.movements)
          db.prepared(putMovement).run({
            id: m.id,
            credit_id: credit.id,
            at: m.at,
            kind: m.kind,
            from_account_id: m.fromAccountId,
            to_account_id: m.toAccountId,
            amount_grams: m.amountGrams,
            reference: m.reference,
          });
      });
    },
    creditHistory(query) {
      const credits = db.q.selectFrom('bo_credits').select(['id', 'json']);
      const row = db.first(
        query.creditId !== undefined
          ? credits.where('id', '=', query.creditId)
          : credits.where('serialization', '=', query.serialization ?? ''),
      );
      if (!row) return null;
      const movements = db.all(db.q.selectFrom('bo_ledger').select(LEDGER_COLUMNS).where('credit_id', '=', row.id).orderBy('id'));
      return { credit: JSON.parse(row.json) as CreditHistory['credit'], movements: movements.map(movementOf) };
    },
    accountMovements(accountIds, offset, limit) {
      if (accountIds.length === 0) return { total: 0, movements: [] };
      const marks = sql.join(accountIds);
      // Each side by its own index, merged newest first (a movement between two of the accounts once).
      const ids = sql`SELECT id FROM bo_ledger WHERE from_account_id IN (${marks}) UNION SELECT id FROM bo_ledger WHERE to_account_id IN (${marks})`;
      const total = db.first(sql<{ n: number }>`SELECT COUNT(*) AS n FROM (${ids})`)!.n;
      const rows = db.all(
        sql<Ledger & Pick<CacheTables['bo_ledger'], 'credit_id'> & Pick<CacheTables['bo_credits'], 'serialization'>>`
           SELECT l.id, l.at, l.kind, l.from_account_id, l.to_account_id, l.amount_grams, l.reference, l.credit_id, c.serialization
           FROM bo_ledger l JOIN bo_credits c ON c.id = l.credit_id
           WHERE l.id IN (${ids}) ORDER BY l.id DESC LIMIT ${limit} OFFSET ${offset}`,
      );
      return {
        total,
        movements: rows.map((r) => ({ ...movementOf(r), creditId: r.credit_id, serialization: r.serialization })),
      };
    },
  };
}
