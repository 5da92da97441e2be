// Dry runs of the ledger writes (see shared/registry/operator-previews.ts): the real operation runs
// in a transaction that is then rolled back, and the answer says what it did there: the credits it
// touched (and whether it created one), the buffer share, the movements, and every affected
// balance before → after. Nothing is written here (the HTTP pipeline still records the attempt in
// the audit log, as for every write attempt); a refusal is the operation's own (400 / 404 / 409, as
// the write would get).
import { sql, type Kysely } from 'kysely';
import {
  ACCOUNT_REF_TEXT_HELP,
  parseAccountRefText,
  queryNumber,
  type PreviewOperation,
  type PreviewQuery,
} from '@shared/registry/operator-previews';
import type { RegistryContext } from '../context';
import { badRequest } from '../errors';
import { accountViews, type AccountView } from '../queries/account-views';
import type { RegistryTables } from '../schema';
import { readSettings } from '../settings';
import { issueCredits } from './issuance';
import { cancelCredits, depositToWarehouse, transferCredits, withdrawFromWarehouse } from './transfers';

class RolledBack extends Error {}

export interface PreviewAnswer {
  operation: PreviewOperation;
  amountGrams: number;
  credits: { creditId: string; serialization: string; projectId: string; vintage: string; type: string; isNew: boolean }[];
  toBufferGrams: number;
  bufferBasisPoints: number | null;
  movements: { kind: string; creditId: string; from: AccountView | null; to: AccountView | null; amountGrams: number }[];
  balances: { account: AccountView; creditId: string; serialization: string; beforeGrams: number; afterGrams: number }[];
}

function accountOf(field: 'from' | 'to', text: string | undefined): unknown {
  if (text === undefined) return undefined;
  const ref = parseAccountRefText(text);
  if (!ref) throw badRequest(`${field}: ${ACCOUNT_REF_TEXT_HELP}`);
  return ref;
}

/** Runs the operation the query describes (its own schema checks the input). */
function run(ctx: RegistryContext, operation: PreviewOperation, q: PreviewQuery): { toBuffer: number; basisPoints: number | null } {
  const amount = queryNumber(q.amount);
  switch (operation) {
    case 'issuance': {
      const basis = queryNumber(q.bufferBasisPoints);
      const result = issueCredits(ctx, {
        projectId: q.projectId,
        vintage: q.vintage,
        type: q.type,
        amount,
        bufferBasisPoints: basis,
        monitoringPeriodStart: q.monitoringPeriodStart,
        monitoringPeriodEnd: q.monitoringPeriodEnd,
        verificationBodyId: q.verificationBodyId,
        receivingOrganizationId: q.receivingOrganizationId,
      } as Parameters<typeof issueCredits>[1]);
      return { toBuffer: result.toBuffer, basisPoints: typeof basis === 'number' ? basis : readSettings(ctx).bufferBasisPoints };
    }
    case 'deposit':
    case 'withdrawal': {
      const input = { organizationId: q.organizationId, creditId: q.creditId, amount } as Parameters<typeof depositToWarehouse>[1];
      if (operation === 'deposit') depositToWarehouse(ctx, input);
      else withdrawFromWarehouse(ctx, input);
      return { toBuffer: 0, basisPoints: null };
    }
    case 'transfer':
      transferCredits(ctx, {
        from: accountOf('from', q.from),
        to: accountOf('to', q.to),
        creditId: q.creditId,
        amount,
      } as Parameters<typeof transferCredits>[1]);
      return { toBuffer: 0, basisPoints: null };
    case 'cancellation':
      cancelCredits(ctx, { from: accountOf('from', q.from), creditId: q.creditId, amount, reason: q.reason } as Parameters<
        typeof cancelCredits
      >[1]);
      return { toBuffer: 0, basisPoints: null };
  }
}

// What the dry run reads back, compiled once per connection (SyncDatabase.prepared).
type Q = Kysely<RegistryTables>;
const lastMovement = (_: Record<string, never>, q: Q) =>
  q.selectFrom('movements').select((eb) => eb.fn.coalesce(eb.fn.max('id'), sql.lit(0)).as('id'));
const movementsAfter = (v: { last: number }, q: Q) =>
  q
    .selectFrom('movements')
    .select(['id', 'credit_id', 'kind', 'from_account', 'to_account', 'amount'])
    .where('id', '>', v.last)
    .orderBy('id');
const creditById = (v: { id: string }, q: Q) =>
  q.selectFrom('credits').select(['id', 'serialization', 'project_id', 'vintage', 'type']).where('id', '=', v.id);
const movedBefore = (v: { creditId: string; last: number }, q: Q) =>
  q.selectFrom('movements').select(sql.lit(1).as('one')).where('credit_id', '=', v.creditId).where('id', '<=', v.last).limit(1);
const balance = (v: { accountId: string; creditId: string }, q: Q) =>
  q.selectFrom('balances').select('amount').where('account_id', '=', v.accountId).where('credit_id', '=', v.creditId);
const accountExists = (v: { id: string }, q: Q) => q.selectFrom('accounts').select('id').where('id', '=', v.id);

export function previewOperation(ctx: RegistryContext, operation: PreviewOperation, query: PreviewQuery): PreviewAnswer {
  const { db } = ctx;
  let answer: PreviewAnswer | undefined;
  try {
    db.transaction(() => {
      const last = db.prepared(lastMovement).first({})?.id ?? 0;
      const { toBuffer, basisPoints } = run(ctx, operation, query);
      const made = db.prepared(movementsAfter).all({ last });
      const views = accountViews(
        ctx,
        made.flatMap((m) => [m.from_account, m.to_account].filter((a): a is string => a !== null)),
      );
      const view = (id: string | null) => (id === null ? null : views.get(id)!);
      const creditIds = [...new Set(made.map((m) => m.credit_id))];
      const credits = creditIds.map((creditId) => {
        // a credit that movements were just made of (a foreign key holds it)
        const c = db.prepared(creditById).first({ id: creditId })!;
        const older = db.prepared(movedBefore).first({ creditId, last });
        return { creditId: c.id, serialization: c.serialization, projectId: c.project_id, vintage: c.vintage, type: c.type, isNew: !older };
      });
      const serializationOf = new Map(credits.map((c) => [c.creditId, c.serialization]));
      // net change per (account, credit): after is what the ledger's triggers left, before = after - change
      const change = new Map<string, { account: string; creditId: string; delta: number }>();
      const add = (account: string | null, creditId: string, delta: number) => {
        if (account === null) return;
        const key = `${account}\u0000${creditId}`;
        const entry = change.get(key) ?? { account, creditId, delta: 0 };
        entry.delta += delta;
        change.set(key, entry);
      };
      for (const m of made) {
        add(m.from_account, m.credit_id, -m.amount);
        add(m.to_account, m.credit_id, m.amount);
      }
      const balanceOf = db.prepared(balance);
      answer = {
        operation,
        amountGrams: operation === 'issuance' ? made.reduce((sum, m) => sum + m.amount, 0) : (made[0]?.amount ?? 0),
        credits,
        toBufferGrams: toBuffer,
        bufferBasisPoints: basisPoints,
        movements: made.map((m) => ({
          kind: m.kind,
          creditId: m.credit_id,
          from: view(m.from_account),
          to: view(m.to_account),
          amountGrams: m.amount,
        })),
        balances: [...change.values()].map(({ account, creditId, delta }) => {
          const after = balanceOf.first({ accountId: account, creditId })?.amount ?? 0;
          return {
            account: view(account)!,
            creditId,
            serialization: serializationOf.get(creditId)!,
            beforeGrams: after - delta,
            afterGrams: after,
          };
        }),
      };
      throw new RolledBack();
    });
  } catch (error) {
    if (!(error instanceof RolledBack)) throw error;
  }
  // Accounts the write would open do not exist once it is rolled back: they have no id yet.
  const exists = db.prepared(accountExists);
  const settle = (v: AccountView | null) => (v !== null && v.id !== null && !exists.first({ id: v.id }) ? { ...v, id: null } : v);
  const a = answer!;
  return {
    ...a,
    movements: a.movements.map((m) => ({ ...m, from: settle(m.from), to: settle(m.to) })),
    balances: a.balances.map((b) => ({ ...b, account: settle(b.account)! })),
  };
}
