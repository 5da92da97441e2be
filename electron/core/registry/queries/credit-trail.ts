// "Where did these tonnes go?": one credit's ledger movements from issuance to now, oldest first and
// one page at a time (keyset on the movement id), each with the accounts it moved between, a
// cancellation's reason, and the audit entry of the write that made it (migration 7 links them;
// movements made before that, or by apps' reservations, have none).
import type { Kysely } from 'kysely';
import { iso } from '@platform/clock';
import type { RegistryContext } from '../context';
import { badRequest, notFound } from '../errors';
import type { RegistryTables } from '../schema';
import { accountViews, type AccountView } from './account-views';

export const encodeTrailCursor = (id: number): string => Buffer.from(`m:${id}`, 'utf8').toString('base64url');
function decodeTrailCursor(cursor: string): number {
  const match = /^m:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw badRequest('cursor: not a cursor this registry handed out');
  return Number(match[1]);
}

/**
 * One credit's movements after `after`, oldest first, each with a cancellation's reason and the
 * audit entry (and its operator) that made it, when migration 7 links one.
 */
const trailOf = (q: Kysely<RegistryTables>, creditId: string, after: number, limit: number) =>
  q
    .selectFrom('movements as m')
    .leftJoin('cancellation_reasons as r', 'r.movement_id', 'm.id')
    .leftJoin('movement_audit as ma', 'ma.movement_id', 'm.id')
    .leftJoin('audit_log as l', 'l.seq', 'ma.audit_seq')
    .leftJoin('operators as o', 'o.id', 'l.operator_id')
    .select([
      'm.id',
      'm.created_at',
      'm.kind',
      'm.from_account',
      'm.to_account',
      'm.amount',
      'm.reference',
      'r.reason',
      'l.id as audit_id',
      'l.at as audit_at',
      'l.operator_id',
      'o.name as operator_name',
      'l.actor',
      'l.action',
      'l.outcome',
    ])
    .where('m.credit_id', '=', creditId)
    .where('m.id', '>', after)
    .orderBy('m.id')
    .limit(limit);

export function creditTrail(ctx: RegistryContext, by: { creditId?: string; serialization?: string; limit: number; cursor?: string }) {
  const credits = ctx.db.q
    .selectFrom('credits as c')
    .innerJoin('projects as p', 'p.id', 'c.project_id')
    .select(['c.id', 'c.serialization', 'c.project_id', 'p.num', 'p.full_name', 'p.organization_id', 'c.vintage', 'c.type']);
  const credit = ctx.db.first(
    by.creditId !== undefined ? credits.where('c.id', '=', by.creditId) : credits.where('c.serialization', '=', by.serialization ?? ''),
  );
  if (!credit)
    throw notFound(`No credit has the ${by.creditId !== undefined ? 'id' : 'serialization'} ${by.creditId ?? by.serialization ?? ''}`);
  const after = by.cursor === undefined ? 0 : decodeTrailCursor(by.cursor);
  const rows = ctx.db.all(trailOf(ctx.db.q, credit.id, after, by.limit + 1));
  const page = rows.slice(0, by.limit);
  const views = accountViews(
    ctx,
    page.flatMap((m) => [m.from_account, m.to_account].filter((a): a is string => a !== null)),
  );
  const view = (id: string | null): AccountView | null => (id === null ? null : (views.get(id) ?? null));
  return {
    credit: {
      id: credit.id,
      serialization: credit.serialization,
      projectId: credit.project_id,
      projectNum: credit.num,
      projectName: credit.full_name,
      organizationId: credit.organization_id,
      vintage: credit.vintage,
      type: credit.type,
    },
    movements: page.map((m) => ({
      id: m.id,
      at: iso(m.created_at),
      kind: m.kind,
      amountGrams: m.amount,
      from: view(m.from_account),
      to: view(m.to_account),
      reference: m.reference,
      reason: m.reason,
      audit:
        m.audit_id === null
          ? null
          : {
              id: m.audit_id,
              at: iso(m.audit_at ?? 0),
              operatorId: m.operator_id,
              operatorName: m.operator_name,
              actor: m.actor ?? '',
              action: m.action ?? '',
              outcome: m.outcome ?? 'succeeded',
            },
    })),
    nextCursor: rows.length > by.limit ? encodeTrailCursor(page[page.length - 1]!.id) : null,
  };
}
