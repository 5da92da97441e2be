// Read queries for retirements (4.2, 4.3). All lists are newest first (created_at DESC, id DESC,
// the retirements_by_time index) and every row goes through presentRetirement, which applies the
// redaction rule for unclaimed retirements and those of unverified organizations.
import type { Kysely } from 'kysely';
import type { Retirement } from '@shared/registry/resources';
import { WALLET_ADDRESS } from '@shared/registry/identifiers';
import type { RegistryContext } from '../context';
import { notFound } from '../errors';
import type { RegistryTables } from '../schema';
import { presentRetirement, retirementRow, selectRetirements, type SelectedRetirement } from '../present';

/**
 * Most retirements GET /v1/{id}/retirements answers (it has no pagination in the interface): an
 * entity with more gets its newest ENTITY_RETIREMENTS_MAX; the paginated list has them all.
 */
export const ENTITY_RETIREMENTS_MAX = 1000;

// Statements compiled once per connection (SyncDatabase.prepared).
type Q = Kysely<RegistryTables>;
/** Newest first: the retirements_by_time index. */
const newestFirst = (q: ReturnType<typeof selectRetirements>) => q.orderBy('r.created_at', 'desc').orderBy('r.id', 'desc');
const retirementCount = (_: Record<string, never>, q: Q) => q.selectFrom('retirements').select((eb) => eb.fn.countAll<number>().as('n'));
/**
 * A page of every retirement. The page's ids are found in the retirements_by_time index alone, then
 * only those rows are joined: with the joins in the paged query, each row skipped by OFFSET was
 * joined too (bench/README.md).
 */
const retirementPage = (v: { limit: number; offset: number }, q: Q) =>
  newestFirst(
    selectRetirements(q).where('r.id', 'in', (eb) =>
      eb.selectFrom('retirements').select('id').orderBy('created_at', 'desc').orderBy('id', 'desc').limit(v.limit).offset(v.offset),
    ),
  );
const byWallet = (v: { wallet: string; limit: number }, q: Q) =>
  newestFirst(selectRetirements(q).where('r.owner_wallet', '=', v.wallet)).limit(v.limit);
const byOrganization = (v: { id: string; limit: number }, q: Q) =>
  newestFirst(selectRetirements(q).where('r.organization_id', '=', v.id)).limit(v.limit);
const byProject = (v: { id: string; limit: number }, q: Q) =>
  newestFirst(
    selectRetirements(q).where('r.credit_id', 'in', (eb) => eb.selectFrom('credits').select('id').where('project_id', '=', v.id)),
  ).limit(v.limit);
const organizationExists = (v: { id: string }, q: Q) => q.selectFrom('organizations').select('id').where('id', '=', v.id);
const projectExists = (v: { id: string }, q: Q) => q.selectFrom('projects').select('id').where('id', '=', v.id);

export function countRetirements(ctx: RegistryContext): number {
  return ctx.db.prepared(retirementCount).first({})?.n ?? 0;
}

/** A page of every retirement, newest first. */
export function listRetirements(ctx: RegistryContext, options: { limit: number; offset: number }): Retirement[] {
  const rows = ctx.db.prepared(retirementPage).all({ limit: options.limit, offset: options.offset });
  return rows.map((row) => presentRetirement(ctx, row));
}

export function retirementById(ctx: RegistryContext, id: string): Retirement {
  const row = retirementRow(ctx, id);
  if (!row) throw notFound(`Retirement ${id} not found`);
  return presentRetirement(ctx, row);
}

/**
 * Retirements of an entity, newest first, at most ENTITY_RETIREMENTS_MAX. The id is tried as, in
 * order: a wallet address (retirements that wallet made on chain; any well-formed address is an
 * entity, so one without retirements answers an empty list), an organization id (retirements it
 * made), a project id (retirements of its credits). Anything else is 404.
 */
export function entityRetirements(ctx: RegistryContext, id: string): Retirement[] {
  const { db } = ctx;
  const limit = ENTITY_RETIREMENTS_MAX;
  let rows: SelectedRetirement[];
  if (WALLET_ADDRESS.test(id)) {
    rows = db.prepared(byWallet).all({ wallet: id.toLowerCase(), limit });
  } else if (db.prepared(organizationExists).first({ id })) {
    rows = db.prepared(byOrganization).all({ id, limit });
  } else if (db.prepared(projectExists).first({ id })) {
    rows = db.prepared(byProject).all({ id, limit });
  } else {
    throw notFound(`No organization, project or wallet address ${id}`);
  }
  return rows.map((row) => presentRetirement(ctx, row));
}
