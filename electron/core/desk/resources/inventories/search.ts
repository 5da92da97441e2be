// How an inventory search is put together (queries.ts): its conditions, and how its text's two
// halves (a serialization range, FTS5 matches) are counted and read. Its statements are sql
// fragments: kysely cannot say an FTS5 MATCH, INDEXED BY, or the unary + that keeps SQLite off an
// index; values are bound, and each distinct text is prepared once (db.prepare's cache).
import type { z } from 'zod';
import { sql, type RawBuilder } from 'kysely';
import { SEARCH_COUNT_LIMIT, type inventoryCreditSearchInput, type InventorySortField } from '@shared/desk/api';
import type { SqliteDatabase } from '@platform/db/database';
import type { CacheTables } from '@desk/cache/schema';
import { searchText } from '@desk/cache/fts-query';
import { allOf, orderBy } from '@desk/cache/queries';
import { inventoryFacetTerm, inventoryFtsTable } from './fts';

export type Fragment = RawBuilder<unknown>;
type Db = SqliteDatabase<CacheTables>;
/** A search as checked (inventoryCreditSearchInput). */
export type ParsedSearch = z.output<typeof inventoryCreditSearchInput>;

// Each sort walks its own index (migration 0004): account first, the sort columns, the credit id
// last (one order), then the filter and text columns, so a filtered walk never reads a wide row.
// Equal values (amounts, vintages, names) follow serialization order.
const INVENTORY_SORTS: Record<InventorySortField, { columns: readonly string[]; index: string }> = {
  project: { columns: ['c.project_name COLLATE NOCASE', 'c.serialization COLLATE NOCASE', 'c.id'], index: 'inventory_credits_by_project' },
  serialization: { columns: ['c.serialization COLLATE NOCASE', 'c.id'], index: 'inventory_credits_by_serialization' },
  vintage: { columns: ['c.vintage', 'c.serialization COLLATE NOCASE', 'c.id'], index: 'inventory_credits_by_vintage' },
  type: { columns: ['c.type', 'c.serialization COLLATE NOCASE', 'c.id'], index: 'inventory_credits_by_type' },
  amount: { columns: ['c.amount', 'c.serialization COLLATE NOCASE', 'c.id'], index: 'inventory_credits_by_amount' },
  supply: { columns: ['c.supply', 'c.serialization COLLATE NOCASE', 'c.id'], index: 'inventory_credits_by_supply' },
};

/**
 * The parts of a search's WHERE clause (shared by the page, its count and the export). Text
 * matches a credit whose project name or number has words starting with the typed words (FTS5),
 * or whose serialization starts with the text as typed (case-insensitive, an index range); a
 * single character selects project names starting with it.
 */
export function searchPlan(input: ParsedSearch) {
  const filters: Fragment[] = [];
  const f = input.filters;
  // Which filter's index leads is decided here, not left to planner statistics sampled from a
  // few rows: a project's credits are few (its own index), a vintage holds a few thousand at
  // most, a type may hold nearly all. The others are checked on the entries (a unary + keeps
  // SQLite from choosing their index).
  const byProject = f.projectId !== undefined;
  if (f.projectId) filters.push(sql`c.project_id = ${f.projectId}`);
  if (f.vintage) filters.push(sql`${sql.raw(byProject ? '+' : '')}c.vintage = ${f.vintage}`);
  if (f.type) filters.push(sql`${sql.raw(byProject || f.vintage ? '+' : '')}c.type = ${f.type}`);
  const base = allOf([sql`c.account = ${input.account}`, ...filters]);
  // The account's FTS table: one of three names, never the caller's text.
  const fts = sql.raw(inventoryFtsTable(input.account));
  const text = searchText(input.query);
  let textSql: Fragment | null = null;
  let serial: Fragment | null = null;
  let match: { terms: string; driven: Fragment; checked: Fragment; holdsFilters: boolean } | null = null;
  if (text.kind === 'initial') {
    const name = sql.raw(byProject ? '+c.project_name' : 'c.project_name');
    textSql = sql`${name} >= ${text.range.from} COLLATE NOCASE AND ${name} < ${text.range.to} COLLATE NOCASE`;
  } else if (text.kind === 'match') {
    // The vintage and type filters are FTS terms too (facet tokens), so FTS5 alone finds and
    // counts the matches that pass them.
    const terms = [`{project num} : (${text.match})`];
    if (!byProject) {
      if (f.vintage) terms.push(inventoryFacetTerm('vintage', f.vintage));
      if (f.type) terms.push(inventoryFacetTerm('type', f.type));
    }
    const query = terms.join(' AND ');
    const set = sql`(SELECT rowid FROM ${fts} WHERE ${fts} MATCH ${query})`;
    // The matches either drive the query (a row lookup each) or are built once as a set that
    // entries read from an index are checked against (the unary + keeps SQLite from driving by
    // rowid): with the project filter, its index leads.
    match = { terms: query, driven: sql`c.rowid IN ${set}`, checked: sql`+c.rowid IN ${set}`, holdsFilters: !byProject };
    const typed = input.query.trim();
    // A serialization has no spaces: text with one cannot start one.
    if (!/\s/u.test(typed)) {
      const column = sql.raw(byProject ? '+c.serialization' : 'c.serialization');
      serial = sql`${column} >= ${typed} COLLATE NOCASE AND ${column} < ${`${typed}\u{10FFFF}`} COLLATE NOCASE`;
    }
  }
  const sort = INVENTORY_SORTS[input.sort.field];
  return {
    filters,
    base,
    /** The condition of a search without text, or with a single character. */
    where: textSql ? sql`${base} AND ${textSql}` : base,
    text,
    fts,
    serial,
    match,
    sort,
    order: sql.raw(orderBy(sort.columns, input.sort.direction)),
  };
}
export type SearchPlan = ReturnType<typeof searchPlan>;

/** Rows of `fromWhere` counted up to SEARCH_COUNT_LIMIT + 1 (more: the caller reports a lower bound). */
const boundedCount = (db: Db, fromWhere: Fragment): number =>
  db.first(sql<{ n: number }>`SELECT count(*) AS n FROM (SELECT 1 FROM ${fromWhere} LIMIT ${sql.lit(SEARCH_COUNT_LIMIT + 1)})`)!.n;

/** What a text search's two halves hold, each counted on its own: an index range, an FTS query. */
export function textShape(db: Db, plan: SearchPlan): { inRange: number; ftsMatches: number } {
  const { base, serial, fts } = plan;
  return {
    inRange: serial ? boundedCount(db, sql`inventory_credits c WHERE ${base} AND ${serial}`) : 0,
    ftsMatches: boundedCount(db, sql`${fts} WHERE ${fts} MATCH ${plan.match!.terms}`),
  };
}
export type TextShape = ReturnType<typeof textShape>;

/** The FTS half of a text search as rows of inventory_credits: driven by FTS, or checked against the project index. */
const ftsRows = (plan: SearchPlan) =>
  sql`SELECT c.rowid FROM inventory_credits c WHERE ${plan.base} AND ${plan.match!.holdsFilters ? plan.match!.driven : plan.match!.checked}`;

/** The rowids a text search matches: the serialization range and the FTS matches, each read its cheapest way. */
export function matchedRowids(plan: SearchPlan, shape: TextShape): Fragment {
  const parts: Fragment[] = [];
  if (plan.serial && shape.inRange > 0) parts.push(sql`SELECT c.rowid FROM inventory_credits c WHERE ${plan.base} AND ${plan.serial}`);
  if (shape.ftsMatches > 0) parts.push(ftsRows(plan));
  return parts.length > 0 ? sql.join(parts, sql` UNION `) : sql`SELECT NULL WHERE 0`;
}

/**
 * The whole condition of a text search, as checked entry by entry while a sort index is walked:
 * only the halves that match anything (a serialization range alone stays a range of the index).
 * Null when nothing can match.
 */
export function textCondition(plan: SearchPlan, shape: TextShape): Fragment | null {
  const halves: Fragment[] = [];
  if (plan.serial && shape.inRange > 0) halves.push(plan.serial);
  if (shape.ftsMatches > 0) halves.push(plan.match!.checked);
  if (halves.length === 0) return null;
  return sql`${plan.base} AND ${halves.length === 1 ? halves[0] : sql`((${halves[0]}) OR ${halves[1]})`}`;
}

/**
 * How many credits a search matches: exact for the whole account (one index count), otherwise up
 * to past SEARCH_COUNT_LIMIT. Text adds the serialization range and the FTS matches, less those
 * in both (read off the range, checked against the matches as a set).
 */
export function countMatches(db: Db, plan: SearchPlan, shape: TextShape | null, wholeAccount: () => number): number {
  const { base, serial, match } = plan;
  if (plan.text.kind === 'none' && plan.filters.length === 0) return wholeAccount();
  if (!shape || !match) return boundedCount(db, sql`inventory_credits c WHERE ${plan.where}`);
  const { inRange, ftsMatches } = shape;
  if (inRange > SEARCH_COUNT_LIMIT || ftsMatches === 0) return inRange;
  if (!match.holdsFilters) {
    // The project filter: its index leads, the matches are checked as a set.
    const outsideRange = serial && inRange > 0 ? sql` AND NOT (${serial})` : sql``;
    return inRange + boundedCount(db, sql`inventory_credits c WHERE ${base} AND ${match.checked}${outsideRange}`);
  }
  if (inRange === 0) return ftsMatches;
  return inRange + ftsMatches - boundedCount(db, sql`inventory_credits c WHERE ${base} AND ${serial} AND ${match.checked}`);
}
