// After a sync: the retirements and ledger movements in the cache against the movements of the
// verified log, by content, not only by id. A retirement's leaf is its `retire` movement (same
// reference, same amount in grams, the same time within a second: the registry stamps the two rows
// one after the other); a back-office movement is its leaf's row, column for column. A record newer
// than the verified checkpoint is pending: the next sync's checkpoint covers it.
import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { SqliteDatabase } from '@platform/db/database';
import type { CacheTables } from '../cache/schema';

/** A synced record whose content is not its leaf's (at most this many are named as evidence). */
export interface Mismatch {
  record: string;
  synced: Record<string, unknown>;
  logged: Record<string, unknown>;
}

export interface MatchResult {
  mismatches: Mismatch[];
  /** Synced records no verified leaf covers yet. */
  pending: number;
}

const LIMIT = 50;
const msOf = (iso: ReturnType<typeof sql.ref>) => sql<number>`CAST(round((julianday(${iso}) - 2440587.5) * 86400000) AS INTEGER)`;

/** A retirement beside its logged movement. */
type RetirementBeside = { id: string; amount: number; created_at: string; logged_id: number; logged_amount: number; logged_at: number };
/** A back-office movement (bo_ledger's columns) beside its logged row as JSON. */
type LedgerBeside = Selectable<CacheTables['bo_ledger']> & { logged: string };

type Db = SqliteDatabase<CacheTables>;

// A full match reads every retirement (100,000 at scale 100: most of a re-sync's time). After it,
// this connection notes which retirements are written (inserted, changed, removed) and which ones
// newly verified `retire` movements name, each with whether it was pending at that moment, so the
// next match reads only those. The notes are the connection's own (TEMP tables and triggers): the
// sync worker's connection is the one that writes retirements and verifies the log.
const TOUCHED = sql.table('temp.hv_touched');
const coveredSql = (id: string) => `EXISTS (SELECT 1 FROM main.hv_movements m WHERE m.reference = ${id} AND m.kind = 'retire')`;

/** Starts noting touched retirements on this connection (idempotent). */
function trackTouched(db: Db): void {
  db.run(sql`CREATE TEMP TABLE IF NOT EXISTS hv_touched (id TEXT PRIMARY KEY, was_pending INTEGER NOT NULL) WITHOUT ROWID`);
  const notes = [
    ['insert', 'INSERT', 'NEW.id', '0'],
    ['update', 'UPDATE', 'OLD.id', `NOT ${coveredSql('OLD.id')}`],
    ['delete', 'DELETE', 'OLD.id', `NOT ${coveredSql('OLD.id')}`],
  ] as const;
  for (const [name, event, id, wasPending] of notes) {
    db.run(
      sql`CREATE TEMP TRIGGER IF NOT EXISTS ${sql.id(`hv_touched_${name}`)} AFTER ${sql.raw(event)} ON main.retirements
        BEGIN INSERT OR IGNORE INTO hv_touched (id, was_pending) VALUES (${sql.raw(id)}, ${sql.raw(wasPending)}); END`,
    );
  }
}

/** Whether this connection has made its temporary table `name` (hv_touched here, hv_replay in store.ts). */
export const hasTempTable = (db: Db, name: string): boolean =>
  db.first(sql<{ n: number }>`SELECT COUNT(*) AS n FROM temp.sqlite_master WHERE type = 'table' AND name = ${name}`)!.n > 0;

const tracking = (db: Db): boolean => hasTempTable(db, 'hv_touched');

/**
 * Notes the retirements that movements about to be verified name (`movements`: a table shaped like
 * hv_movements), with whether each is pending now. Called before they join hv_movements.
 */
export function touchReferencesOf(db: Db, movements: RawBuilder<unknown>): void {
  if (!tracking(db)) return;
  db.run(
    sql`INSERT OR IGNORE INTO ${TOUCHED} (id, was_pending)
      SELECT n.reference, EXISTS (SELECT 1 FROM main.retirements r WHERE r.id = n.reference) AND NOT ${sql.raw(coveredSql('n.reference'))}
      FROM ${movements} n WHERE n.kind = 'retire' AND n.reference IS NOT NULL`,
  );
}

/**
 * The synced records against the verified movements. `pendingBefore`: the retirements pending after
 * the last match on this connection (null: none yet, so every retirement is read).
 */
export function matchSynced(
  db: Db,
  pendingBefore: number | null = null,
  /**
   * Every retirement in the cache was matched already: by the check that verified this run's leaves
   * from the log's first (keep-verified.ts), before this run wrote anything more, and everything
   * written since under the guard (guard.ts). A full match then only counts the pending ones.
   */
  retirementsMatched = false,
): MatchResult & { retirementsPending: number } {
  const full = pendingBefore === null || !tracking(db);
  const scope = full ? sql`1` : sql`r.id IN (SELECT id FROM ${TOUCHED})`;
  let retirementsPending: number;
  if (full) {
    retirementsPending = db.first(sql<{ n: number }>`SELECT COUNT(*) AS n FROM retirements r WHERE NOT ${sql.raw(coveredSql('r.id'))}`)!.n;
  } else {
    const moved = db.first(
      sql<{ was: number; now: number }>`SELECT COALESCE(SUM(t.was_pending), 0) AS was,
          COALESCE(SUM(r.id IS NOT NULL AND NOT ${sql.raw(coveredSql('t.id'))}), 0) AS now
        FROM ${TOUCHED} t LEFT JOIN main.retirements r ON r.id = t.id`,
    )!;
    retirementsPending = pendingBefore - moved.was + moved.now;
  }
  const retirements =
    retirementsMatched && full
      ? []
      : db.all(
          sql<RetirementBeside>`SELECT r.id, r.amount, r.created_at, m.id AS logged_id, m.amount AS logged_amount, m.created_at AS logged_at
      FROM retirements r JOIN hv_movements m ON m.reference = r.id AND m.kind = 'retire'
      WHERE ${scope} AND (m.amount != CAST(round(r.amount * 1000000) AS INTEGER)
        OR abs(m.created_at - ${msOf(sql.ref('r.created_at'))}) > 1000)
      LIMIT ${LIMIT}`,
        );
  trackTouched(db);
  db.run(sql`DELETE FROM ${TOUCHED}`);
  const ledgerPending = db.first(
    sql<{ n: number }>`SELECT COUNT(*) AS n FROM bo_ledger l WHERE NOT EXISTS (SELECT 1 FROM hv_movements m WHERE m.id = l.id)`,
  )!.n;
  const ledger = db.all(
    sql<LedgerBeside>`SELECT l.*, json_object('credit_id', m.credit_id, 'kind', m.kind, 'from_account', m.from_account,
        'to_account', m.to_account, 'amount', m.amount, 'created_at', m.created_at, 'reference', m.reference) AS logged
      FROM bo_ledger l JOIN hv_movements m ON m.id = l.id
      WHERE m.credit_id != l.credit_id OR m.kind != l.kind OR m.from_account IS NOT l.from_account_id
        OR m.to_account IS NOT l.to_account_id OR m.amount != l.amount_grams OR m.reference IS NOT l.reference
        OR m.created_at != ${msOf(sql.ref('l.at'))}
      LIMIT ${LIMIT}`,
  );
  return {
    retirementsPending,
    pending: retirementsPending + ledgerPending,
    mismatches: [
      ...retirements.map((r) => ({
        record: `retirement ${r.id}`,
        synced: { amount: r.amount, createdAt: r.created_at },
        logged: { movement: r.logged_id, amountGrams: r.logged_amount, createdAt: new Date(r.logged_at).toISOString() },
      })),
      ...ledger.map(({ logged, ...synced }) => ({
        record: `movement ${synced.id}`,
        synced,
        logged: JSON.parse(logged) as Record<string, unknown>,
      })),
    ],
  };
}
