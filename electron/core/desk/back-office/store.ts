// The back-office store (the back-office cache): the last answer of every operator read the desk
// made, keyed by the request (endpoint, path parameters, query), so that when the registry cannot
// be reached the same view is answered as it was last read, marked with its time; plus the audit
// log and every credit's ledger movements as rows (cache migration 0005), so the audit log can be
// filtered and a credit's history or an organization's movements read offline too.
import type { BackOfficeOperator, OperatorReadName } from '@shared/desk/back-office';
import type { EndpointResponse } from '@shared/registry/endpoints';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { SqliteDatabase } from '@platform/db/database';
import type { CacheTables } from '@desk/cache/schema';
import { ledgerStore, type LedgerStore } from './ledger-store';

export type AuditEntry = EndpointResponse<'operatorSearchAudit'>['entries'][number];

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

/** The back-office store: saved answers, the audit log, and every credit's history (ledger-store.ts). */
export interface BackOfficeStore extends LedgerStore {
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

type Db = SqliteDatabase<CacheTables>;
type Q = Kysely<CacheTables>;
const toSaved = (row: CacheTables['bo_answers']): SavedAnswer => ({
  key: row.key,
  endpoint: row.endpoint as OperatorReadName,
  call: JSON.parse(row.call_json) as SavedAnswer['call'],
  data: JSON.parse(row.json) as unknown,
  fetchedAt: row.fetched_at,
});

// Statements run once per entry or movement, compiled once per connection.
const putAudit = (v: CacheTables['bo_audit'], q: Q) =>
  q.insertInto('bo_audit').orIgnore().values({
    id: v.id,
    ord: v.ord,
    at_ms: v.at_ms,
    operator_id: v.operator_id,
    action: v.action,
    outcome: v.outcome,
    json: v.json,
  });
const putAuditTarget = (v: CacheTables['bo_audit_targets'], q: Q) =>
  q.insertInto('bo_audit_targets').orIgnore().values({ target_id: v.target_id, ord: v.ord });
/** The saved answers of operator reads (bo_answers). */
function answerStore(db: Db): Pick<BackOfficeStore, 'get' | 'put' | 'entries' | 'latestFetchedAt'> {
  const answers = () => db.q.selectFrom('bo_answers').select(['key', 'endpoint', 'call_json', 'json', 'fetched_at']);
  return {
    get(key) {
      const row = db.first(answers().where('key', '=', key));
      return row ? toSaved(row) : null;
    },
    put(request, data, fetchedAt) {
      db.run(
        db.q
          .insertInto('bo_answers')
          .values({
            key: requestKey(request),
            endpoint: request.endpoint,
            call_json: JSON.stringify({ params: request.params ?? {}, query: request.query ?? {} }),
            json: JSON.stringify(data ?? null),
            fetched_at: fetchedAt,
          })
          .onConflict((oc) =>
            oc.column('key').doUpdateSet((eb) => ({ json: eb.ref('excluded.json'), fetched_at: eb.ref('excluded.fetched_at') })),
          ),
      );
    },
    entries() {
      return db.all(answers()).map(toSaved);
    },
    latestFetchedAt() {
      return db.first(db.q.selectFrom('bo_answers').select((eb) => eb.fn.max('fetched_at').as('at')))?.at ?? null;
    },
  };
}

/** The audit log as rows (bo_audit, with each entry's targets in bo_audit_targets). */
function auditStore(db: Db): Pick<BackOfficeStore, 'hasAuditEntry' | 'addNewestAudit' | 'searchAudit'> {
  return {
    hasAuditEntry(id) {
      return db.first(db.q.selectFrom('bo_audit').select('id').where('id', '=', id)) !== undefined;
    },
    addNewestAudit(entries) {
      db.transaction(() => {
        let ord = (db.first(db.q.selectFrom('bo_audit').select((eb) => eb.fn.max('ord').as('ord')))?.ord ?? 0) + entries.length;
        for (const entry of entries) {
          const values = { id: entry.id, ord, at_ms: Date.parse(entry.at), operator_id: entry.operatorId, action: entry.action };
          if (db.prepared(putAudit).run({ ...values, outcome: entry.outcome, json: JSON.stringify(entry) }).changes)
            for (const id of new Set(entry.targetIds)) db.prepared(putAuditTarget).run({ target_id: id, ord });
          ord--;
        }
      });
    },
    searchAudit(query) {
      if (db.first(db.q.selectFrom('bo_audit').select('id').limit(1)) === undefined) return null;
      const where: RawBuilder<unknown>[] = [];
      // By target: the target's index first (CROSS JOIN keeps SQLite from choosing another order).
      const from = query.targetId !== undefined ? sql`bo_audit_targets t CROSS JOIN bo_audit a ON a.ord = t.ord` : sql`bo_audit a`;
      if (query.targetId !== undefined) where.push(sql`t.target_id = ${query.targetId}`);
      if (query.cursor !== undefined) {
        const match = LOCAL_CURSOR.exec(query.cursor);
        // A registry's cursor cannot be followed offline: its page starts nowhere the desk knows.
        if (!match) return null;
        where.push(sql`a.ord < ${Number(match[1])}`);
      }
      if (query.operatorId !== undefined) where.push(sql`a.operator_id = ${query.operatorId}`);
      if (query.action !== undefined) where.push(sql`a.action = ${query.action}`);
      if (query.from !== undefined) where.push(sql`a.at_ms >= ${query.from}`);
      if (query.to !== undefined) where.push(sql`a.at_ms < ${query.to}`);
      const whereSql = where.length > 0 ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``;
      const rows = db.all(
        sql<
          Pick<CacheTables['bo_audit'], 'ord' | 'json'>
        >`SELECT a.ord, a.json FROM ${from} ${whereSql} ORDER BY a.ord DESC LIMIT ${query.limit + 1}`,
      );
      const page = rows.slice(0, query.limit);
      return {
        entries: page.map((r) => JSON.parse(r.json) as AuditEntry),
        nextCursor: rows.length > query.limit ? `local:${page.at(-1)!.ord}` : null,
      };
    },
  };
}

/** The store in the connection's cache file (tables of cache migration 0005). */
export function createCacheBackOfficeStore(db: Db): BackOfficeStore {
  const answers = answerStore(db);
  return {
    ...answers,
    operator() {
      const saved = answers.get(SELF_KEY);
      const operator = (saved?.data as { operator?: BackOfficeOperator } | undefined)?.operator;
      return operator ? { id: operator.id, name: operator.name, role: operator.role } : null;
    },
    rememberOperator() {
      // The operatorGetSelf answer itself is the memory (put by every read of it).
    },
    ...auditStore(db),
    ...ledgerStore(db),
  };
}
