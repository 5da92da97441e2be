// Read queries for retirements (4.2, 4.3). All lists are newest first (created_at DESC, id DESC,
// the retirements_by_time index) and every row goes through presentRetirement, which applies the
// redaction rule for unclaimed retirements and those of unverified organizations.
import type { Retirement } from '@shared/registry/resources';
import { WALLET_ADDRESS } from '@shared/registry/identifiers';
import type { RegistryContext } from '../context';
import { notFound } from '../errors';
import { presentRetirement, RETIREMENT_COLUMNS, RETIREMENT_FROM, retirementRow, type RetirementRow } from '../present';

/**
 * Most retirements GET /v1/{id}/retirements answers (it has no pagination in the interface): an
 * entity with more gets its newest ENTITY_RETIREMENTS_MAX; the paginated list has them all.
 */
export const ENTITY_RETIREMENTS_MAX = 1000;

const NEWEST_FIRST = 'ORDER BY r.created_at DESC, r.id DESC';
/** The same order over `retirements` unaliased (the retirements_by_time index alone). */
const NEWEST_FIRST_IDS = 'ORDER BY created_at DESC, id DESC';

export function countRetirements(ctx: RegistryContext): number {
  return (ctx.db.prepare('SELECT COUNT(*) AS n FROM retirements').get() as { n: number }).n;
}

/**
 * A page of every retirement, newest first. The page's ids are found in the retirements_by_time
 * index alone, then only those rows are joined: with the joins in the paged query, each row skipped
 * by OFFSET was joined too (bench/README.md).
 */
export function listRetirements(ctx: RegistryContext, options: { limit: number; offset: number }): Retirement[] {
  const rows = ctx.db
    .prepare(
      `SELECT ${RETIREMENT_COLUMNS} FROM ${RETIREMENT_FROM}
       WHERE r.id IN (SELECT id FROM retirements ${NEWEST_FIRST_IDS} LIMIT ? OFFSET ?) ${NEWEST_FIRST}`,
    )
    .all(options.limit, options.offset) as RetirementRow[];
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
  let rows: RetirementRow[];
  if (WALLET_ADDRESS.test(id)) {
    rows = db
      .prepare(`SELECT ${RETIREMENT_COLUMNS} FROM ${RETIREMENT_FROM} WHERE r.owner_wallet = ? ${NEWEST_FIRST} LIMIT ?`)
      .all(id.toLowerCase(), ENTITY_RETIREMENTS_MAX) as RetirementRow[];
  } else if (db.prepare('SELECT 1 FROM organizations WHERE id = ?').get(id)) {
    rows = db
      .prepare(`SELECT ${RETIREMENT_COLUMNS} FROM ${RETIREMENT_FROM} WHERE r.organization_id = ? ${NEWEST_FIRST} LIMIT ?`)
      .all(id, ENTITY_RETIREMENTS_MAX) as RetirementRow[];
  } else if (db.prepare('SELECT 1 FROM projects WHERE id = ?').get(id)) {
    rows = db
      .prepare(
        `SELECT ${RETIREMENT_COLUMNS} FROM ${RETIREMENT_FROM}
         WHERE r.credit_id IN (SELECT id FROM credits WHERE project_id = ?) ${NEWEST_FIRST} LIMIT ?`,
      )
      .all(id, ENTITY_RETIREMENTS_MAX) as RetirementRow[];
  } else {
    throw notFound(`No organization, project or wallet address ${id}`);
  }
  return rows.map((row) => presentRetirement(ctx, row));
}
