// The only way holdings change: rows appended to `movements`. Balances follow by trigger in the
// same transaction (see migration 0001), so they are derived from the ledger and cannot disagree.
// A retirement is written here too, with its movement, since every way of retiring (operator,
// warehouse worker, seed) must record both alike.
import type { RegistryContext } from './context';
import type { AccountKind, MovementKind } from './schema';
import { conflict, notFound } from './errors';

export type AccountRef =
  | { kind: 'inventory' | 'warehouse'; organizationId: string }
  | { kind: 'buffer' | 'adjustment' | 'registry' }
  | { kind: 'wallet'; address: string };

export function describeAccount(ref: AccountRef): string {
  switch (ref.kind) {
    case 'inventory':
    case 'warehouse':
      return `${ref.kind} of organization ${ref.organizationId}`;
    case 'wallet':
      return `wallet ${ref.address}`;
    default:
      return `registry ${ref.kind} account`;
  }
}

/** The account's id, creating the account on first use (organization accounts need the organization). */
export function accountId(ctx: RegistryContext, ref: AccountRef): string {
  const { db } = ctx;
  let row: { id: string } | undefined;
  if (ref.kind === 'inventory' || ref.kind === 'warehouse') {
    row = db.prepare('SELECT id FROM accounts WHERE organization_id = ? AND kind = ?').get(ref.organizationId, ref.kind) as typeof row;
    if (row) return row.id;
    const org = db.prepare('SELECT id FROM organizations WHERE id = ?').get(ref.organizationId);
    if (!org) throw notFound(`Organization ${ref.organizationId} not found`);
  } else if (ref.kind === 'wallet') {
    row = db.prepare('SELECT id FROM accounts WHERE wallet_address = ?').get(ref.address.toLowerCase()) as typeof row;
    if (row) return row.id;
  } else {
    // the literal IN list lets SQLite use the partial unique index on the registry's accounts
    row = db.prepare("SELECT id FROM accounts WHERE kind = ? AND kind IN ('buffer', 'adjustment', 'registry')").get(ref.kind) as typeof row;
    if (row) return row.id;
  }
  const id = ctx.newId();
  db.prepare('INSERT INTO accounts (id, kind, organization_id, wallet_address, created_at) VALUES (?, ?, ?, ?, ?)').run(
    id,
    ref.kind satisfies AccountKind,
    'organizationId' in ref ? ref.organizationId : null,
    ref.kind === 'wallet' ? ref.address.toLowerCase() : null,
    ctx.clock.now(),
  );
  return id;
}

/** The existing account's id, or undefined when nothing was ever held there. */
export function findAccountId(ctx: RegistryContext, ref: AccountRef): string | undefined {
  const { db } = ctx;
  const row =
    ref.kind === 'inventory' || ref.kind === 'warehouse'
      ? db.prepare('SELECT id FROM accounts WHERE organization_id = ? AND kind = ?').get(ref.organizationId, ref.kind)
      : ref.kind === 'wallet'
        ? db.prepare('SELECT id FROM accounts WHERE wallet_address = ?').get(ref.address.toLowerCase())
        : db.prepare("SELECT id FROM accounts WHERE kind = ? AND kind IN ('buffer', 'adjustment', 'registry')").get(ref.kind);
  return (row as { id: string } | undefined)?.id;
}

export function balanceOf(ctx: RegistryContext, account: string, creditId: string): number {
  const row = ctx.db.prepare('SELECT amount FROM balances WHERE account_id = ? AND credit_id = ?').get(account, creditId) as
    { amount: number } | undefined;
  return row?.amount ?? 0;
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

/** Appends one movement; an overdraft aborts it (and the caller's transaction) with a 409. */
export function appendMovement(ctx: RegistryContext, m: MovementInput): number {
  try {
    const result = ctx.db
      .prepare(
        'INSERT INTO movements (credit_id, kind, from_account, to_account, amount, created_at, reference) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(m.creditId, m.kind, m.from ?? null, m.to ?? null, m.amount, m.createdAt ?? ctx.clock.now(), m.reference ?? null);
    return Number(result.lastInsertRowid);
  } catch (error) {
    if (error instanceof Error && /insufficient balance/.test(error.message)) {
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
  ctx.db
    .prepare(
      `INSERT INTO retirements (id, credit_id, amount, created_at, source, organization_id, owner_wallet, project_address, token_id,
         beneficiary, reason, comment, finalized_at, movement_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)`,
    )
    .run(
      id,
      r.creditId,
      r.amount,
      r.createdAt ?? ctx.clock.now(),
      r.source,
      r.organizationId,
      r.ownerWallet?.toLowerCase() ?? null,
      r.projectAddress ?? null,
      r.tokenId ?? null,
      r.beneficiary ?? null,
      r.reason ?? null,
      r.comment ?? null,
      movementId,
    );
  return id;
}
