// The only way holdings change: rows appended to `movements`. Balances follow by trigger in the
// same transaction (see migration 0001), so they are derived from the ledger and cannot disagree.
// A retirement is written here too, with its movement, since every way of retiring (operator,
// warehouse worker, seed) must record both alike.
import type { RegistryContext } from './context';
import { sql, type Insertable, type Kysely } from 'kysely';
import type { AccountKind, MovementKind, RegistryTables } from './schema';
import { badRequest, conflict, notFound } from './errors';
import { appendLeaf } from './transparency/leaf';
import { hasTable } from './schema-probe';
import { formatTonnesForPeople } from '@shared/registry/amounts';

export type AccountRef =
  | { kind: 'inventory' | 'warehouse'; organizationId: string }
  | { kind: 'buffer' | 'adjustment' | 'registry' }
  | { kind: 'wallet'; address: string };

// The ledger's statements, compiled once per connection (SqliteDatabase.prepared): the warehouse
// worker and the seed run them for every movement.
type Q = Kysely<RegistryTables>;
const organizationExists = (v: { id: string }, q: Q) => q.selectFrom('organizations').select('id').where('id', '=', v.id);
const organizationAccount = (v: { organizationId: string; kind: AccountKind }, q: Q) =>
  q.selectFrom('accounts').select('id').where('organization_id', '=', v.organizationId).where('kind', '=', v.kind);
const walletAccount = (v: { address: string }, q: Q) => q.selectFrom('accounts').select('id').where('wallet_address', '=', v.address);
// The kinds are written into the SQL as literals, not parameters, so SQLite can use the partial
// unique index on the registry's accounts.
const registryAccount = (v: { kind: AccountKind }, q: Q) =>
  q
    .selectFrom('accounts')
    .select('id')
    .where('kind', '=', v.kind)
    .where('kind', 'in', [sql.lit<AccountKind>('buffer'), sql.lit<AccountKind>('adjustment'), sql.lit<AccountKind>('registry')]);
const insertAccount = (v: Insertable<RegistryTables['accounts']>, q: Q) =>
  q.insertInto('accounts').values({
    id: v.id,
    kind: v.kind,
    organization_id: v.organization_id,
    wallet_address: v.wallet_address,
    created_at: v.created_at,
  });
const balance = (v: { accountId: string; creditId: string }, q: Q) =>
  q.selectFrom('balances').select('amount').where('account_id', '=', v.accountId).where('credit_id', '=', v.creditId);
const accountTotal = (v: { accountId: string }, q: Q) =>
  q.selectFrom('account_totals').select('total').where('account_id', '=', v.accountId);
const balanceSum = (v: { accountId: string }, q: Q) =>
  q
    .selectFrom('balances')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), sql.lit(0)).as('total'))
    .where('account_id', '=', v.accountId);
const insertMovement = (v: Insertable<RegistryTables['movements']>, q: Q) =>
  q
    .insertInto('movements')
    .values({
      credit_id: v.credit_id,
      kind: v.kind,
      from_account: v.from_account,
      to_account: v.to_account,
      amount: v.amount,
      created_at: v.created_at,
      reference: v.reference,
    })
    .returningAll();
const insertRetirementRow = (v: Insertable<RegistryTables['retirements']>, q: Q) =>
  q.insertInto('retirements').values({
    id: v.id,
    credit_id: v.credit_id,
    amount: v.amount,
    created_at: v.created_at,
    source: v.source,
    organization_id: v.organization_id,
    owner_wallet: v.owner_wallet,
    project_address: v.project_address,
    token_id: v.token_id,
    beneficiary: v.beneficiary,
    reason: v.reason,
    comment: v.comment,
    finalized_at: v.finalized_at,
    movement_id: v.movement_id,
  });

/** The account's id, creating the account on first use (organization accounts need the organization). */
export function accountId(ctx: RegistryContext, ref: AccountRef): string {
  const { db } = ctx;
  const found = findAccountId(ctx, ref);
  if (found) return found;
  if ((ref.kind === 'inventory' || ref.kind === 'warehouse') && !db.prepared(organizationExists).first({ id: ref.organizationId })) {
    throw notFound(`Organization ${ref.organizationId} not found`);
  }
  const id = ctx.newId();
  db.prepared(insertAccount).run({
    id,
    kind: ref.kind,
    organization_id: 'organizationId' in ref ? ref.organizationId : null,
    wallet_address: ref.kind === 'wallet' ? ref.address.toLowerCase() : null,
    created_at: ctx.clock.now(),
  });
  return id;
}

/** The existing account's id, or undefined when nothing was ever held there. */
export function findAccountId(ctx: RegistryContext, ref: AccountRef): string | undefined {
  const { db } = ctx;
  const row =
    ref.kind === 'inventory' || ref.kind === 'warehouse'
      ? db.prepared(organizationAccount).first({ organizationId: ref.organizationId, kind: ref.kind })
      : ref.kind === 'wallet'
        ? db.prepared(walletAccount).first({ address: ref.address.toLowerCase() })
        : db.prepared(registryAccount).first({ kind: ref.kind });
  return row?.id;
}

export function balanceOf(ctx: RegistryContext, account: string, creditId: string): number {
  return ctx.db.prepared(balance).first({ accountId: account, creditId })?.amount ?? 0;
}

export interface MovementInput {
  creditId: string;
  kind: MovementKind;
  from?: string;
  to?: string;
  /** Grams, > 0. */
  amount: number;
  reference?: string;
  /** When the movement happened, if not now (records of what happened on chain earlier). */
  createdAt?: number;
}

/** The most one movement may carry: a billion tonnes, in grams. */
export const MAX_MOVEMENT_GRAMS = 1_000_000_000 * 1_000_000;
/**
 * The most one account may hold over all its credits together: nine billion tonnes, in grams (9e15),
 * below 2^53 (9,007,199,254,740,992), so every balance and every sum of an account's balances (its
 * inventory's total) stays an exact JavaScript number. One credit's balance is bounded by it too.
 */
export const MAX_ACCOUNT_GRAMS = 9_000_000_000 * 1_000_000;

const tonnes = (grams: number) => formatTonnesForPeople(grams);

/**
 * What the account holds over all its credits, in grams (kept by trigger, migration 0016). On a
 * database below 0016 (an older registry's, as migration tests stand in for) the sum of its balances.
 */
export function accountTotalOf(ctx: RegistryContext, account: string): number {
  if (!hasTable(ctx, 'account_totals')) return Number(ctx.db.prepared(balanceSum).first({ accountId: account })?.total ?? 0);
  return ctx.db.prepared(accountTotal).first({ accountId: account })?.total ?? 0;
}

/** How an overdraft fails in the database: the balance trigger's message, or the account total's CHECK (SQLite, PostgreSQL). */
const OVERDRAFT = /insufficient balance|CHECK constraint failed: total >= 0|account_totals_total_check/;

/** Appends one movement; an overdraft aborts it (and the caller's transaction) with a 409, as does an account past its cap. */
export function appendMovement(ctx: RegistryContext, m: MovementInput): number {
  if (!Number.isSafeInteger(m.amount) || m.amount > MAX_MOVEMENT_GRAMS) {
    throw badRequest(`amount: at most ${tonnes(MAX_MOVEMENT_GRAMS)} t per movement`);
  }
  if (m.to !== undefined) {
    const held = accountTotalOf(ctx, m.to);
    if (held + m.amount > MAX_ACCOUNT_GRAMS) {
      throw conflict(
        `The receiving account holds ${tonnes(held)} t over all its credits; ${tonnes(m.amount)} t more of ${m.creditId} would pass ` +
          `${tonnes(MAX_ACCOUNT_GRAMS)} t, the most one account may hold over all its credits together`,
      );
    }
  }
  try {
    // the row as stored (RETURNING *): its transparency-log leaf is encoded from it
    const row = ctx.db.prepared(insertMovement).first({
      credit_id: m.creditId,
      kind: m.kind,
      from_account: m.from ?? null,
      to_account: m.to ?? null,
      amount: m.amount,
      created_at: m.createdAt ?? ctx.clock.now(),
      reference: m.reference ?? null,
    });
    if (!row) throw new Error('the movement was not stored');
    // the movement's transparency-log leaf, in this same transaction (docs/transparency.md)
    appendLeaf(ctx, 'movement', row);
    return Number(row.id);
  } catch (error) {
    // The balance's trigger refuses an overdraft; the account total's (migration 0016) may run first
    // (SQLite fires the newer trigger first, PostgreSQL in name order) and meet its CHECK instead
    // when the account holds less over all its credits than the amount: the same overdraft.
    if (error instanceof Error && OVERDRAFT.test(error.message)) {
      throw conflict(`Not enough credits of ${m.creditId} in the source account`);
    }
    throw error;
  }
}

/** Inserts a retirement row and its ledger movement; shared by every way a retirement is made. */
export function insertRetirement(
  ctx: RegistryContext,
  r: {
    id?: string;
    creditId: string;
    fromAccount: string;
    amount: number;
    source: 'warehouse' | 'inventory' | 'onchain';
    organizationId: string | null;
    ownerWallet?: string;
    projectAddress?: string;
    tokenId?: string;
    beneficiary?: string;
    reason?: string;
    comment?: string;
    createdAt?: number;
  },
): string {
  const id = r.id ?? ctx.newId();
  const movementId = appendMovement(ctx, {
    creditId: r.creditId,
    kind: 'retire',
    from: r.fromAccount,
    amount: r.amount,
    reference: id,
    ...(r.createdAt !== undefined ? { createdAt: r.createdAt } : {}),
  });
  ctx.db.prepared(insertRetirementRow).run({
    id,
    credit_id: r.creditId,
    amount: r.amount,
    created_at: r.createdAt ?? ctx.clock.now(),
    source: r.source,
    organization_id: r.organizationId,
    owner_wallet: r.ownerWallet?.toLowerCase() ?? null,
    project_address: r.projectAddress ?? null,
    token_id: r.tokenId ?? null,
    beneficiary: r.beneficiary ?? null,
    reason: r.reason ?? null,
    comment: r.comment ?? null,
    finalized_at: null,
    movement_id: movementId,
  });
  return id;
}
