// The records already in the cache against the leaves a check has just verified (from index
// `fromLeaf` on), by content: the records a sync wrote while their leaves were still pending.
// keep-verified.ts runs it in the transaction that keeps the new checkpoint; records written after
// that are matched as they are written (guard.ts). Same rules as match.ts: a retirement against its
// `retire` movement (reference, grams, time within a second), a ledger movement column for column.
import { sql, type Selectable } from 'kysely';
import type { SqliteDatabase } from '@platform/db/database';
import type { CacheTables } from '../cache/schema';
import type { Mismatch } from './match';

const LIMIT = 50;
const msOf = (iso: ReturnType<typeof sql.ref>) => sql<number>`CAST(round((julianday(${iso}) - 2440587.5) * 86400000) AS INTEGER)`;

type RetirementBeside = {
  id: string;
  amount: number;
  created_at: string;
  logged_id: number;
  logged_leaf: number;
  logged_amount: number;
  logged_at: number;
};
type LedgerBeside = Selectable<CacheTables['bo_ledger']> & { logged: string };

/** What differs, in words (the first record named). */
export const contentMessage = (mismatches: readonly Pick<Mismatch, 'record'>[]) =>
  `${mismatches.length === 1 ? 'a record it serves differs' : `${mismatches.length} records it serves differ`} from the entry its log holds (${mismatches[0]!.record})`;

/** The records in the cache that differ from the leaves verified from index `fromLeaf` on (at most 50 named). */
export function matchNewLeaves(db: SqliteDatabase<CacheTables>, fromLeaf: number): Mismatch[] {
  // From the log's first leaf (a first check: every movement is new), every retirement is read:
  // walked in the table's own order, each one's movement found by its reference, rather than
  // looked up at 100,000 random places from the movements (at --scale 100, 0.21 s against 0.38 s).
  // From a later leaf only the few new movements' retirements are looked up.
  const pairs =
    fromLeaf === 0
      ? sql`retirements r NOT INDEXED CROSS JOIN hv_movements m ON m.reference = r.id`
      : sql`hv_movements m JOIN retirements r ON r.id = m.reference`;
  const retirements = db.all(
    sql<RetirementBeside>`SELECT r.id, r.amount, r.created_at, m.id AS logged_id, m.leaf AS logged_leaf, m.amount AS logged_amount,
        m.created_at AS logged_at
      FROM ${pairs}
      WHERE m.leaf >= ${fromLeaf} AND m.kind = 'retire' AND (m.amount != CAST(round(r.amount * 1000000) AS INTEGER)
        OR abs(m.created_at - ${msOf(sql.ref('r.created_at'))}) > 1000)
      LIMIT ${LIMIT}`,
  );
  const ledger = db.all(
    sql<LedgerBeside>`SELECT l.*, json_object('leaf', m.leaf, 'credit_id', m.credit_id, 'kind', m.kind, 'from_account', m.from_account,
        'to_account', m.to_account, 'amount', m.amount, 'created_at', m.created_at, 'reference', m.reference) AS logged
      FROM hv_movements m JOIN bo_ledger l ON l.id = m.id
      WHERE m.leaf >= ${fromLeaf} AND (m.credit_id != l.credit_id OR m.kind != l.kind OR m.from_account IS NOT l.from_account_id
        OR m.to_account IS NOT l.to_account_id OR m.amount != l.amount_grams OR m.reference IS NOT l.reference
        OR m.created_at != ${msOf(sql.ref('l.at'))})
      LIMIT ${LIMIT}`,
  );
  return [
    ...retirements.map((r) => ({
      record: `retirement ${r.id}`,
      synced: { amount: r.amount, createdAt: r.created_at },
      logged: { movement: r.logged_id, leaf: r.logged_leaf, amountGrams: r.logged_amount, createdAt: new Date(r.logged_at).toISOString() },
    })),
    ...ledger.map(({ logged, ...synced }) => ({
      record: `movement ${synced.id}`,
      synced,
      logged: JSON.parse(logged) as Record<string, unknown>,
    })),
  ];
}
