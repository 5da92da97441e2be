// The audit log read back: entries newest first, filtered, one page at a time, for the operators'
// audit endpoint. What writes the entries is audit.ts.
import type { AuditOutcome } from '@shared/registry/vocabulary';
import { iso } from '../platform/clock';
import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { RegistryContext } from './context';
import type { RegistryTables } from './schema';
import type { AuditEntry } from './audit';
import { RegistryError } from './errors';

export interface AuditSearch {
  limit: number;
  /** The `seq` of the last entry of the previous page, as the opaque cursor string. */
  cursor?: string;
  operatorId?: string;
  action?: string;
  targetId?: string;
  outcome?: AuditOutcome;
  /** Epoch ms, inclusive. */
  from?: number;
  /** Epoch ms, exclusive. */
  to?: number;
}

type StoredAuditEntry = Selectable<RegistryTables['audit_log']>;

export const encodeAuditCursor = (seq: number): string => Buffer.from(`a:${seq}`, 'utf8').toString('base64url');
export function decodeAuditCursor(cursor: string): number | undefined {
  const match = /^a:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match ? Number(match[1]) : undefined;
}

/** The most stored text (detail and targets) one page of the audit log carries; the rest is on the next page. */
export const AUDIT_PAGE_MAX_BYTES = 1024 * 1024;

/** The leading rows whose stored text fits AUDIT_PAGE_MAX_BYTES (always at least one). */
function withinBytes(rows: StoredAuditEntry[]): StoredAuditEntry[] {
  let bytes = 0;
  for (let i = 0; i < rows.length; i++) {
    bytes += rows[i]!.detail.length + rows[i]!.target_ids.length + rows[i]!.actor.length + 200;
    if (bytes > AUDIT_PAGE_MAX_BYTES && i > 0) return rows.slice(0, i);
  }
  return rows;
}

/** Entries newest first, filtered, one page at a time (keyset on `seq`), at most `limit` and AUDIT_PAGE_MAX_BYTES. */
export function searchAudit(ctx: RegistryContext, search: AuditSearch): { entries: AuditEntry[]; nextCursor: string | null } {
  const where: RawBuilder<unknown>[] = [];
  let from = sql`audit_log l`;
  if (search.targetId !== undefined) {
    // CROSS JOIN (which kysely cannot write) keeps the target's own entries (a short list, newest
    // first by its key) as the outer loop: the planner would otherwise sometimes walk all of one
    // operator's entries instead. (The join condition is in WHERE: PostgreSQL allows no ON after
    // CROSS JOIN; SQLite plans it alike.)
    from = sql`audit_targets t CROSS JOIN audit_log l`;
    where.push(sql`l.seq = t.seq`, sql`t.target_id = ${search.targetId}`);
  }
  if (search.cursor !== undefined) {
    const seq = decodeAuditCursor(search.cursor);
    if (seq === undefined) throw new RegistryError('bad_request', 'cursor: not a cursor this registry handed out');
    where.push(search.targetId !== undefined ? sql`t.seq < ${seq}` : sql`l.seq < ${seq}`);
  }
  if (search.operatorId !== undefined) where.push(sql`l.operator_id = ${search.operatorId}`);
  if (search.action !== undefined) where.push(sql`l.action = ${search.action}`);
  if (search.outcome !== undefined) where.push(sql`l.outcome = ${search.outcome}`);
  if (search.from !== undefined) where.push(sql`l.at >= ${search.from}`);
  if (search.to !== undefined) where.push(sql`l.at < ${search.to}`);
  const order = search.targetId !== undefined ? sql`t.seq DESC` : sql`l.seq DESC`;
  const rows = ctx.db.all(
    sql<StoredAuditEntry>`SELECT l.seq, l.id, l.at, l.operator_id, l.actor, l.action, l.target_ids, l.outcome, l.detail FROM ${from}
       ${where.length ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``} ORDER BY ${order} LIMIT ${search.limit + 1}`,
  );
  const page = withinBytes(rows.slice(0, search.limit));
  const more = rows.length > page.length;
  return {
    entries: page.map((r) => ({
      id: r.id,
      at: iso(r.at),
      operatorId: r.operator_id,
      actor: r.actor,
      action: r.action,
      targetIds: JSON.parse(r.target_ids) as string[],
      outcome: r.outcome,
      detail: JSON.parse(r.detail) as Record<string, unknown>,
    })),
    nextCursor: more ? encodeAuditCursor(page[page.length - 1]!.seq) : null,
  };
}
