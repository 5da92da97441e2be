// The registry's own accounts (4.4): buffer, adjustment and the registry operator's organization
// account ('registry'). Each is answered as the operator organization's summary, the account's
// inventory summary and its non-zero holdings as inventory credits (2.9).
import { sql, type Kysely } from 'kysely';
import type { InventoryCredit, InventorySummary, OrganizationSummary } from '@shared/registry/resources';
import { gramsToTonnes } from '@shared/registry/amounts';
import type { RegistryContext } from '../context';
import { notFound } from '../errors';
import { findAccountId } from '../ledger';
import { presentOrganizationSummary, projectReferenceOf } from '../present';
import type { MovementKind, RegistryTables } from '../schema';
import { summarizeInventory } from './credit-summaries';

export type RegistryAccountKind = 'buffer' | 'adjustment' | 'registry';

export interface RegistryInventory {
  summary: InventorySummary;
  organization: OrganizationSummary;
  credits: InventoryCredit[];
}

/** The account's non-zero holdings, each with its credit and the credit's supply ever issued. */
const holdingsOf = (q: Kysely<RegistryTables>, account: string) =>
  q
    .selectFrom('balances as b')
    .innerJoin('credits as c', 'c.id', 'b.credit_id')
    .select((eb) => [
      'b.credit_id',
      'b.amount as balance',
      'c.type',
      'c.vintage',
      'c.serialization',
      'c.token_id',
      'c.token_address',
      'c.project_id',
      eb.fn
        .coalesce(
          eb
            .selectFrom('movements as m')
            .select((m) => m.fn.sum<number>('m.amount').as('issued'))
            .where('m.credit_id', '=', eb.ref('b.credit_id'))
            .where('m.kind', '=', sql.lit<MovementKind>('issue')),
          sql.lit(0),
        )
        .as('supply'),
    ])
    .where('b.account_id', '=', account)
    .where('b.amount', '>', 0)
    .orderBy('c.serialization');

export function registryInventory(ctx: RegistryContext, kind: RegistryAccountKind): RegistryInventory {
  const operator = ctx.db.first(ctx.db.q.selectFrom('organizations').select(['id', 'full_name', 'logo']).where('is_registry', '=', 1));
  // Without an operator organization the registry is not set up; there is no owner to show.
  if (!operator) throw notFound('The registry operator organization has not been set up');

  // An account is created on first use: one that never held anything is an empty inventory.
  const account = findAccountId(ctx, { kind });
  const holdings = account === undefined ? [] : ctx.db.all(holdingsOf(ctx.db.q, account));
  const retired =
    account === undefined
      ? 0
      : (ctx.db.first(
          sql<{
            grams: number;
          }>`SELECT COALESCE(SUM(amount), 0) AS grams FROM movements WHERE from_account = ${account} AND kind = 'retire'`,
        )?.grams ?? 0);

  return {
    summary: summarizeInventory(holdings, retired),
    organization: presentOrganizationSummary(ctx, operator),
    credits: holdings.map((h): InventoryCredit => ({
      organizationId: operator.id,
      id: h.credit_id,
      tokenId: String(h.token_id),
      tokenAddress: h.token_address,
      project: projectReferenceOf(ctx, h.project_id),
      serialization: h.serialization,
      vintage: h.vintage,
      supply: gramsToTonnes(h.supply),
      unit: 'tonne',
      amount: gramsToTonnes(h.balance),
      type: h.type,
    })),
  };
}
