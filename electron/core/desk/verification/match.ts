// The retirements and ledger movements in the cache against the movements of the verified log, by
// content, not only by id. A retirement's leaf is its `retire` movement (same reference, same amount
// in grams, the same time within a second: the registry stamps the two rows one after the other); a
// back-office movement is its leaf's row, column for column. A record written while no verified
// leaf covered it is pending; it is matched here when a check verifies its leaf (before that sync
// writes), and a record written later is matched as it is written (guard.ts).
import { sql, type Selectable } from 'kysely';
import type { SqliteDatabase } from '@platform/db/database';
import type { CacheTables } from '../cache/schema';

/** A synced record whose content is not its leaf's (at most this many are named as evidence). */
export interface Mismatch {
  record: string;
  synced: Record<string, unknown>;
  logged: Record<string, unknown>;
}

const LIMIT = 50;

/** What differs, in words (the first record named). */
export const contentMessage = (mismatches: readonly Pick<Mismatch, 'record'>[]) =>
  `${mismatches.length === 1 ? 'a record it serves differs' : `${mismatches.length} records it serves differ`} from the entry its log holds (${mismatches[0]!.record})`;
const msOf = (iso: ReturnType<typeof sql.ref>) => sql<number>`CAST(round((julianday(${iso}) - 2440587.5) * 86400000) AS INTEGER)`;

/** A retirement beside its logged movement. */
type RetirementBeside = {
  id: string;
  amount: number;
  created_at: string;
  logged_id: number;
  logged_leaf: number;
  logged_amount: number;
  logged_at: number;
};
/** A back-office movement (bo_ledger's columns) beside its logged row as JSON. */
type LedgerBeside = Selectable<CacheTables['bo_ledger']> & { logged: string };

/** Synced records no verified leaf covers yet (the next sync's checkpoint does). */
export function countPending(db: SqliteDatabase<CacheTables>): number {
  const retirementsPending = db.first(
    sql<{ n: number }>`SELECT COUNT(*) AS n FROM retirements r
      WHERE NOT EXISTS (SELECT 1 FROM hv_movements m WHERE m.reference = r.id AND m.kind = 'retire')`,
  )!.n;
  const ledgerPending = db.first(
    sql<{ n: number }>`SELECT COUNT(*) AS n FROM bo_ledger l WHERE NOT EXISTS (SELECT 1 FROM hv_movements m WHERE m.id = l.id)`,
  )!.n;
  return retirementsPending + ledgerPending;
}

/** The records in the cache that differ from the leaves verified from index `fromLeaf` on (at most 50 named). */
export function matchNewLeaves(db: SqliteDatabase<CacheTables>, fromLeaf: number): Mismatch[] {
  const retirements = db.all(
    sql<RetirementBeside>`SELECT r.id, r.amount, r.created_at, m.id AS logged_id, m.leaf AS logged_leaf, m.amount AS logged_amount,
        m.created_at AS logged_at
      FROM hv_movements m JOIN retirements r ON r.id = m.reference
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
