// The search tables of the registry accounts' credits (migration 0004): one FTS5 table per account
// over project name and number, plus a `facets` column holding each credit's vintage and type as
// one token each, so text with those filters is matched and counted inside FTS5.
import { sql } from 'kysely';
import type { InventoryAccount } from '@shared/desk/api';

export const inventoryFtsTable = (account: InventoryAccount) => `inventory_${account}_fts` as const;

/**
 * What goes into the FTS columns for an inventory_credits row (SQL over its columns). Facet tokens
 * are `v` + hex(vintage) and `t` + hex(type): any value is exactly one token, and values that
 * differ only in case stay apart (the tokenizer folds case, hex digits do not mind).
 */
export const inventoryFtsFacets = sql<string>`'v' || hex(vintage) || ' t' || hex(type)`;

/** The FTS5 query term that selects credits of this vintage or type (see inventoryFtsFacets). */
export function inventoryFacetTerm(kind: 'vintage' | 'type', value: string): string {
  return `facets : "${kind === 'vintage' ? 'v' : 't'}${Buffer.from(value, 'utf8').toString('hex')}"`;
}
