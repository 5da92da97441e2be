// The back-office store (the back-office cache): the last answer of every operator read the desk
// made, keyed by the request (endpoint, path parameters, query), so that when the registry cannot
// be reached the same view is answered as it was last read, marked with its time; plus the audit
// log and every credit's ledger movements as rows (cache migration 0005), so the audit log can be
// filtered and a credit's history or an organization's movements read offline too.
import type { BackOfficeOperator, OperatorReadName } from '@shared/desk/back-office';
import type { EndpointResponse } from '@shared/registry/endpoints';
import type { SqliteDatabase } from '@platform/db/database';
import type { CacheTables } from '../cache/schema';

export type AuditEntry = EndpointResponse<'operatorSearchAudit'>['entries'][number];
export type CreditHistory = EndpointResponse<'operatorCreditHistory'>;
export type Movement = CreditHistory['movements'][number];

export interface BackOfficeRequest {
  endpoint: OperatorReadName;
  params?: Record<string, string> | undefined;
  query?: Record<string, string | number> | undefined;
}

export interface SavedAnswer {
  key: string;
  endpoint: OperatorReadName;
  call: { params: Record<string, string>; query: Record<string, string | number> };
  data: unknown;
  fetchedAt: number;
}

export interface AuditQuery {
  limit: number;
  cursor?: string | undefined;
  operatorId?: string | undefined;
  action?: string | undefined;
  targetId?: string | undefined;
  /** Epoch ms, inclusive / exclusive. */
  from?: number | undefined;
  to?: number | undefined;
}

/** One movement of an organization's accounts, with its credit. */
export interface AccountMovement extends Movement {
  creditId: string;
  serialization: string;
}

export interface BackOfficeStore {
  get(key: string): SavedAnswer | null;
  put(request: BackOfficeRequest, data: unknown, fetchedAt: number): void;
  /** Every saved answer (to re-read them after a write). */
  entries(): SavedAnswer[];
  /** When the newest answer was read from the registry, null before any. */
  latestFetchedAt(): number | null;
  /** The operator account last confirmed for this connection. */
  operator(): BackOfficeOperator | null;
  rememberOperator(operator: BackOfficeOperator): void;

  /** Whether the audit log holds this entry (the incremental sync stops there). */
  hasAuditEntry(id: string): boolean;
  /** Adds entries newer than every one kept, given newest first. */
  addNewestAudit(entries: AuditEntry[]): void;
  /** The audit log filtered as the registry filters it (null when it was never synced). */
  searchAudit(query: AuditQuery): { entries: AuditEntry[]; nextCursor: string | null } | null;

  /** The balances hash a credit's history was last read at (null: never read). */
  creditBalancesHash(creditId: string): string | null;
  putCreditHistory(history: CreditHistory, balancesHash: string, fetchedAt: number): void;
  creditHistory(query: { creditId?: string | undefined; serialization?: string | undefined }): CreditHistory | null;
  /** Movements into or out of the accounts, newest first, a page at a time, and how many in all. */
  accountMovements(accountIds: string[], offset: number, limit: number): { total: number; movements: AccountMovement[] };
}

function sorted<T>(record: Record<string, T> | undefined): [string, T][] {
  return Object.entries(record ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** One spelling per request: the same view asked twice has the same key, whatever the order of its fields. */
export function requestKey(request: BackOfficeRequest): string {
  // Query values as the URL carries them (text): page=0 and page="0" are one request.
  const query = sorted(request.query).map(([name, value]) => [name, String(value)]);
  return JSON.stringify([request.endpoint, sorted(request.params), query]);
}

const SELF_KEY = '["operatorGetSelf",[],[]]';
const LOCAL_CURSOR = /^local:(\d+)$/;

/** The store in the connection's cache file (tables of cache migration 0005). */
export function createCacheBackOfficeStore(db: SqliteDatabase<CacheTables>): BackOfficeStore {
  const raw = db.raw;
  const toSaved = (row: { key: string; endpoint: string; call_json: string; json: string; fetched_at: number }): SavedAnswer => ({
    key: row.key,
    endpoint: row.endpoint as OperatorReadName,
    call: JSON.parse(row.call_json) as SavedAnswer['call'],
    data: JSON.parse(row.json) as unknown,
    fetchedAt: row.fetched_at,
  });
  type AnswerRow = Parameters<typeof toSaved>[0];

  return {
    get(key) {
      const row = raw.prepare('SELECT key, endpoint, call_json, json, fetched_at FROM bo_answers WHERE key = ?').get(key) as
        AnswerRow | undefined;
      return row ? toSaved(row) : null;
    },
    put(request, data, fetchedAt) {
      raw
        .prepare(
          `INSERT INTO bo_answers (key, endpoint, call_json, json, fetched_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (key) DO UPDATE SET json = excluded.json, fetched_at = excluded.fetched_at`,
        )
        .run(
          requestKey(request),
          request.endpoint,
          JSON.stringify({ params: request.params ?? {}, query: request.query ?? {} }),
          JSON.stringify(data ?? null),
          fetchedAt,
        );
    },
    entries() {
      return (raw.prepare('SELECT key, endpoint, call_json, json, fetched_at FROM bo_answers').all() as AnswerRow[]).map(toSaved);
    },
    latestFetchedAt() {
      return (raw.prepare('SELECT MAX(fetched_at) FROM bo_answers').pluck().get() as number | null) ?? null;
    },
    operator() {
      const saved = this.get(SELF_KEY);
      const operator = (saved?.data as { operator?: BackOfficeOperator } | undefined)?.operator;
      return operator ? { id: operator.id, name: operator.name, role: operator.role } : null;
    },
    rememberOperator() {
      // The operatorGetSelf answer itself is the memory (put by every read of it).
    },

    hasAuditEntry(id) {
      return raw.prepare('SELECT 1 FROM bo_audit WHERE id = ?').get(id) !== undefined;
    },
    addNewestAudit(entries) {
      const insert = raw.prepare(
        'INSERT OR IGNORE INTO bo_audit (id, ord, at_ms, operator_id, action, outcome, json) VALUES (?, ?, ?, ?, ?, ?, ?)',
      );
      const target = raw.prepare('INSERT OR IGNORE INTO bo_audit_targets (target_id, ord) VALUES (?, ?)');
      raw.transaction(() => {
        let ord = ((raw.prepare('SELECT MAX(ord) FROM bo_audit').pluck().get() as number | null) ?? 0) + entries.length;
        for (const entry of entries) {
          if (insert.run(entry.id, ord, Date.parse(entry.at), entry.operatorId, entry.action, entry.outcome, JSON.stringify(entry)).changes)
            for (const id of new Set(entry.targetIds)) target.run(id, ord);
          ord--;
        }
      })();
    },
    searchAudit(query) {
      if (raw.prepare('SELECT 1 FROM bo_audit LIMIT 1').get() === undefined) return null;
      const where: string[] = [];
      const args: (string | number)[] = [];
      let from = 'bo_audit a';
      if (query.targetId !== undefined) {
        from = 'bo_audit_targets t CROSS JOIN bo_audit a ON a.ord = t.ord';
        where.push('t.target_id = ?');
        args.push(query.targetId);
      }
      if (query.cursor !== undefined) {
        const match = LOCAL_CURSOR.exec(query.cursor);
        // A registry's cursor cannot be followed offline: its page starts nowhere the desk knows.
        if (!match) return null;
        where.push('a.ord < ?');
        args.push(Number(match[1]));
      }
      const filters: [string, string | number | undefined][] = [
        ['a.operator_id = ?', query.operatorId],
        ['a.action = ?', query.action],
        ['a.at_ms >= ?', query.from],
        ['a.at_ms < ?', query.to],
      ];
      for (const [clause, value] of filters) {
        if (value === undefined) continue;
        where.push(clause);
        args.push(value);
      }
      const rows = raw
        .prepare(`SELECT a.ord, a.json FROM ${from} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY a.ord DESC LIMIT ?`)
        .all(...args, query.limit + 1) as { ord: number; json: string }[];
      const page = rows.slice(0, query.limit);
      return {
        entries: page.map((r) => JSON.parse(r.json) as AuditEntry),
        nextCursor: rows.length > query.limit ? `local:${page.at(-1)!.ord}` : null,
      };
    },

    creditBalancesHash(creditId) {
      return (raw.prepare('SELECT balances_hash FROM bo_credits WHERE id = ?').pluck().get(creditId) as string | undefined) ?? null;
    },
    putCreditHistory(history, balancesHash, fetchedAt) {
      const { credit } = history;
      raw.transaction(() => {
        raw
          .prepare(
            `INSERT INTO bo_credits (id, serialization, balances_hash, json, fetched_at) VALUES (?, ?, ?, ?, ?)
             ON CONFLICT (id) DO UPDATE SET serialization = excluded.serialization, balances_hash = excluded.balances_hash,
               json = excluded.json, fetched_at = excluded.fetched_at`,
          )
          .run(credit.id, credit.serialization, balancesHash, JSON.stringify(credit), fetchedAt);
        raw.prepare('DELETE FROM bo_ledger WHERE credit_id = ?').run(credit.id);
        const insert = raw.prepare(
          'INSERT OR REPLACE INTO bo_ledger (id, credit_id, at, kind, from_account_id, to_account_id, amount_grams, reference) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        );
        for (const m of history.movements)
          insert.run(m.id, credit.id, m.at, m.kind, m.fromAccountId, m.toAccountId, m.amountGrams, m.reference);
      })();
    },
    creditHistory(query) {
      const row = (
        query.creditId !== undefined
          ? raw.prepare('SELECT id, json FROM bo_credits WHERE id = ?').get(query.creditId)
          : raw.prepare('SELECT id, json FROM bo_credits WHERE serialization = ?').get(query.serialization ?? '')
      ) as { id: string; json: string } | undefined;
      if (!row) return null;
      const movements = raw
        .prepare(
          'SELECT id, at, kind, from_account_id, to_account_id, amount_grams, reference FROM bo_ledger WHERE credit_id = ? ORDER BY id',
        )
        .all(row.id) as LedgerRow[];
      return { credit: JSON.parse(row.json) as CreditHistory['credit'], movements: movements.map(movementOf) };
    },
    accountMovements(accountIds, offset, limit) {
      if (accountIds.length === 0) return { total: 0, movements: [] };
      const marks = accountIds.map(() => '?').join(', ');
      // Each side by its own index, merged newest first (a movement between two of the accounts once).
      const ids = `SELECT id FROM bo_ledger WHERE from_account_id IN (${marks}) UNION SELECT id FROM bo_ledger WHERE to_account_id IN (${marks})`;
      const total = raw
        .prepare(`SELECT COUNT(*) FROM (${ids})`)
        .pluck()
        .get(...accountIds, ...accountIds) as number;
      const rows = raw
        .prepare(
          `SELECT l.id, l.at, l.kind, l.from_account_id, l.to_account_id, l.amount_grams, l.reference, l.credit_id, c.serialization
           FROM bo_ledger l JOIN bo_credits c ON c.id = l.credit_id
           WHERE l.id IN (${ids}) ORDER BY l.id DESC LIMIT ? OFFSET ?`,
        )
        .all(...accountIds, ...accountIds, limit, offset) as (LedgerRow & { credit_id: string; serialization: string })[];
      return {
        total,
        movements: rows.map((r) => ({ ...movementOf(r), creditId: r.credit_id, serialization: r.serialization })),
      };
    },
  };
}

interface LedgerRow {
  id: number;
  at: string;
  kind: string;
  from_account_id: string | null;
  to_account_id: string | null;
  amount_grams: number;
  reference: string | null;
}

const movementOf = (r: LedgerRow): Movement => ({
  id: r.id,
  at: r.at,
  kind: r.kind,
  fromAccountId: r.from_account_id,
  toAccountId: r.to_account_id,
  amountGrams: r.amount_grams,
  reference: r.reference,
});
