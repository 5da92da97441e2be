// Reads of the registry accounts' inventories (migration 0004): an account's summary, its credits
// searched, filtered, sorted and paged, the facets of its filter menus, and every row of a search
// for the CSV export (streamed from SQLite, never one big array). Also what the sync reads to skip
// unchanged answers and credits.
import type { z } from 'zod';
import {
  inventoryCreditSearchInput,
  SEARCH_COUNT_LIMIT,
  type InventoryAccount,
  type InventoryCreditRow,
  type InventoryCreditSearchInput,
  type InventoryFacets,
  type InventorySortField,
} from '@shared/desk/api';
import type { InventorySummary, OrganizationSummary } from '@shared/registry/resources';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { SqliteDatabase } from '@platform/db/database';
import type { CacheTables } from '@desk/cache/schema';
import { searchText } from '@desk/cache/fts-query';
import { allOf, orderBy } from '@desk/cache/queries';
import { inventoryFacetTerm, inventoryFtsTable } from './fts';
import type { Memoized } from '@desk/cache/memo';

export interface InventoryQueryHelpers {
  /** Validates input against a desk schema; throws CacheInputError listing every problem. */
  parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S>;
  lastSuccessAt(): number | null;
  /** Keeps an answer until the cache changes (the connection's shared memo). */
  memoized: Memoized;
  walkSortIndex(matches: number, rows: number, offset: number, limit: number): boolean;
}

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

// The search's statements are sql templates: kysely cannot say an FTS5 MATCH, INDEXED BY, or the
// unary + that keeps SQLite off an index; each distinct text is still prepared once (db.prepare's cache).
type Fragment = RawBuilder<unknown>;
type Q = Kysely<CacheTables>;

const ROW_COLUMNS = sql.raw(`c.id, c.project_id, c.project_name, c.project_num, c.serialization, c.vintage, c.type, c.amount, c.supply,
  c.unit, c.token_id, c.token_address`);

/** The columns of a credit as the search reads them (ROW_COLUMNS). */
type ListedCredit = Pick<
  CacheTables['inventory_credits'],
  | 'id'
  | 'project_id'
  | 'project_name'
  | 'project_num'
  | 'serialization'
  | 'vintage'
  | 'type'
  | 'amount'
  | 'supply'
  | 'unit'
  | 'token_id'
  | 'token_address'
>;
type Facet = InventoryFacets['vintages'][number];

const toRow = (r: ListedCredit): InventoryCreditRow => ({
  id: r.id,
  projectId: r.project_id,
  projectName: r.project_name,
  projectNum: r.project_num,
  serialization: r.serialization,
  vintage: r.vintage,
  type: r.type,
  amount: r.amount,
  supply: r.supply,
  unit: r.unit,
  tokenId: r.token_id,
  tokenAddress: r.token_address,
});

const isoOrNull = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

// The fixed reads, compiled once per connection (SqliteDatabase.prepared).
type AccountValues = { account: InventoryAccount };
const creditCount = (v: AccountValues, q: Q) =>
  q
    .selectFrom('inventory_credits')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account', '=', v.account);
const inventoryOf = (v: AccountValues, q: Q) =>
  q.selectFrom('inventories').select(['json', 'credit_count', 'answer_hash']).where('account', '=', v.account);
const rowHashesOf = (v: AccountValues, q: Q) => q.selectFrom('inventory_credits').select(['id', 'row_hash']).where('account', '=', v.account);
const vintageFacets = (v: AccountValues, q: Q) =>
  q
    .selectFrom('inventory_credits')
    .select((eb) => ['vintage as value', 'vintage as label', eb.fn.countAll<number>().as('count')])
    .where('account', '=', v.account)
    .groupBy('vintage')
    .orderBy('vintage', 'desc');
const typeFacets = (v: AccountValues, q: Q) =>
  q
    .selectFrom('inventory_credits')
    .select((eb) => ['type as value', 'type as label', eb.fn.countAll<number>().as('count')])
    .where('account', '=', v.account)
    .groupBy('type')
    .orderBy('count', 'desc')
    .orderBy('type');
/** One row per token id of a project's credits, newest vintage first. */
const tokensOf = (v: { projectId: string }, q: Q) =>
  q
    .selectFrom('inventory_credits')
    .select((eb) => [
      'token_id as tokenId',
      eb.fn.min('token_address').as('tokenAddress'),
      eb.fn.min('serialization').as('serialization'),
      eb.fn.min('vintage').as('vintage'),
      eb.fn.min('type').as('type'),
    ])
    .where('project_id', '=', v.projectId)
    .groupBy('token_id')
    .orderBy('vintage', 'desc')
    .orderBy(sql`CAST(token_id AS INTEGER)`);

export function createInventoryQueries(db: SqliteDatabase<CacheTables>, helpers: InventoryQueryHelpers) {
  const { parseInput, memoized } = helpers;

  /** Credits an account holds (an index count, kept until the cache changes). */
  const countCredits = (account: InventoryAccount): number =>
    memoized(`inventory-count:${account}`, () => db.prepared(creditCount).first({ account })!.n);

  /**
   * The parts of a search's WHERE clause (shared by the page, its count and the export). Text
   * matches a credit whose project name or number has words starting with the typed words (FTS5),
   * or whose serialization starts with the text as typed (case-insensitive, an index range); a
   * single character selects project names starting with it.
   */
  function searchPlan(input: ReturnType<typeof parseSearch>) {
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
  type SearchPlan = ReturnType<typeof searchPlan>;

  /** Rows of `fromWhere` counted up to SEARCH_COUNT_LIMIT + 1 (more: the caller reports a lower bound). */
  const boundedCount = (fromWhere: Fragment): number =>
    db.first(sql<{ n: number }>`SELECT count(*) AS n FROM (SELECT 1 FROM ${fromWhere} LIMIT ${sql.lit(SEARCH_COUNT_LIMIT + 1)})`)!.n;

  /** What a text search's two halves hold, each counted on its own: an index range, an FTS query. */
  function textShape(plan: SearchPlan): { inRange: number; ftsMatches: number } {
    const { base, serial, fts } = plan;
    return {
      inRange: serial ? boundedCount(sql`inventory_credits c WHERE ${base} AND ${serial}`) : 0,
      ftsMatches: boundedCount(sql`${fts} WHERE ${fts} MATCH ${plan.match!.terms}`),
    };
  }
  type TextShape = ReturnType<typeof textShape>;

  /** The FTS half of a text search as rows of inventory_credits: driven by FTS, or checked against the project index. */
  const ftsRows = (plan: SearchPlan) =>
    sql`SELECT c.rowid FROM inventory_credits c WHERE ${plan.base} AND ${plan.match!.holdsFilters ? plan.match!.driven : plan.match!.checked}`;

  /** The rowids a text search matches: the serialization range and the FTS matches, each read its cheapest way. */
  function matchedRowids(plan: SearchPlan, shape: TextShape): Fragment {
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
  function textCondition(plan: SearchPlan, shape: TextShape): Fragment | null {
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
  function countMatches(input: ReturnType<typeof parseSearch>, plan: SearchPlan, shape: TextShape | null): number {
    const { base, serial, match } = plan;
    if (plan.text.kind === 'none' && plan.filters.length === 0) return countCredits(input.account);
    if (!shape || !match) return boundedCount(sql`inventory_credits c WHERE ${plan.where}`);
    const { inRange, ftsMatches } = shape;
    if (inRange > SEARCH_COUNT_LIMIT || ftsMatches === 0) return inRange;
    if (!match.holdsFilters) {
      // The project filter: its index leads, the matches are checked as a set.
      const outsideRange = serial && inRange > 0 ? sql` AND NOT (${serial})` : sql``;
      return inRange + boundedCount(sql`inventory_credits c WHERE ${base} AND ${match.checked}${outsideRange}`);
    }
    if (inRange === 0) return ftsMatches;
    return inRange + ftsMatches - boundedCount(sql`inventory_credits c WHERE ${base} AND ${serial} AND ${match.checked}`);
  }

  function parseSearch(rawInput: Omit<InventoryCreditSearchInput, 'offset' | 'limit'> & { offset?: number; limit?: number }) {
    return parseInput(inventoryCreditSearchInput, rawInput);
  }

  function getInventory(
    account: InventoryAccount,
  ): { summary: InventorySummary; organization: OrganizationSummary; creditCount: number; asOf: string | null } | null {
    const row = db.prepared(inventoryOf).first({ account });
    if (!row) return null;
    const { summary, organization } = JSON.parse(row.json) as { summary: InventorySummary; organization: OrganizationSummary };
    return { summary, organization, creditCount: row.credit_count, asOf: isoOrNull(helpers.lastSuccessAt()) };
  }

  function searchInventoryCredits(rawInput: InventoryCreditSearchInput): {
    total: number;
    totalIsLowerBound?: boolean;
    rows: InventoryCreditRow[];
    asOf: string | null;
  } {
    const input = parseSearch(rawInput);
    const plan = searchPlan(input);
    const { sort, order } = plan;
    const shape = plan.match ? textShape(plan) : null;
    const matches = countMatches(input, plan, shape);
    const whole = plan.text.kind === 'none' && plan.filters.length === 0;
    const counted =
      matches > SEARCH_COUNT_LIMIT && !whole ? { total: SEARCH_COUNT_LIMIT, totalIsLowerBound: true as const } : { total: matches };
    const asOf = isoOrNull(helpers.lastSuccessAt());
    const where = shape ? textCondition(plan, shape) : plan.where;
    if (where === null || matches === 0) return { ...counted, rows: [], asOf };
    const page = sql`LIMIT ${input.limit} OFFSET ${input.offset}`;
    // Many matches: walk the sort index in order, checking each entry (the filter and text columns
    // are in it; FTS matches are one set), and stop after the page. Few: read the matches and sort
    // them. A project's credits are few and have their own index: never walked.
    const dense =
      input.filters.projectId === undefined &&
      (whole || helpers.walkSortIndex(counted.total, countCredits(input.account), input.offset, input.limit));
    let pageRowids: Fragment;
    if (dense)
      pageRowids = sql`SELECT c.rowid FROM inventory_credits c INDEXED BY ${sql.raw(sort.index)} WHERE ${where} ORDER BY ${order} ${page}`;
    else if (shape)
      pageRowids = sql`SELECT c.rowid FROM inventory_credits c WHERE c.rowid IN (${matchedRowids(plan, shape)}) ORDER BY ${order} ${page}`;
    else pageRowids = sql`SELECT c.rowid FROM inventory_credits c WHERE ${where} ORDER BY ${order} ${page}`;
    const records = db.all(sql<ListedCredit>`SELECT ${ROW_COLUMNS} FROM inventory_credits c WHERE c.rowid IN (${pageRowids}) ORDER BY ${order}`);
    return { ...counted, rows: records.map(toRow), asOf };
  }

  /**
   * Every credit a search matches, in its order, read row by row from SQLite (the CSV export).
   * Consume it without other statements on this connection in between (it holds a read cursor).
   */
  function* inventoryCreditsOf(rawInput: Omit<InventoryCreditSearchInput, 'offset' | 'limit'>): Generator<InventoryCreditRow> {
    const input = parseSearch(rawInput);
    const plan = searchPlan(input);
    const where = plan.text.kind === 'match' ? sql`c.rowid IN (${matchedRowids(plan, textShape(plan))})` : plan.where;
    const rows = db.iterate(sql<ListedCredit>`SELECT ${ROW_COLUMNS} FROM inventory_credits c WHERE ${where} ORDER BY ${plan.order}`);
    for (const record of rows) yield toRow(record);
  }

  /** An account's facets: every credit's vintages and types, counted once per cache version. */
  function wholeAccountFacets(account: InventoryAccount): InventoryFacets {
    return memoized(`inventory-facets:${account}`, () => ({
      vintages: db.prepared(vintageFacets).all({ account }),
      types: db.prepared(typeFacets).all({ account }),
    }));
  }

  /**
   * The filter menus' values with how many credits each would list: under the search text and the
   * OTHER filters (a facet's own choice does not narrow its own counts), so a count is the number of
   * rows choosing it shows. A chosen value matching nothing stays listed, with 0.
   */
  function inventoryFacets(account: InventoryAccount, query = '', filters: InventoryCreditSearchInput['filters'] = {}): InventoryFacets {
    const narrowed = query.trim() !== '' || Object.values(filters ?? {}).some((v) => v !== undefined && v !== '');
    if (!narrowed) return wholeAccountFacets(account);
    const counted = (key: 'vintage' | 'type', order: string): Facet[] => {
      const plan = searchPlan(parseSearch({ account, query, filters: { ...filters, [key]: undefined } }));
      const where = plan.text.kind === 'match' ? sql`c.rowid IN (${matchedRowids(plan, textShape(plan))})` : plan.where;
      // The facet's column: one of two names, never the caller's text.
      const c = sql.raw(`c.${key}`);
      const values = db.all(
        sql<Facet>`SELECT ${c} AS value, ${c} AS label, count(*) AS count FROM inventory_credits c WHERE ${where} GROUP BY ${c} ORDER BY ${sql.raw(order)}`,
      );
      const chosen = filters?.[key];
      if (chosen && !values.some((v) => v.value === chosen)) values.push({ value: chosen, label: chosen, count: 0 });
      return values;
    };
    return { vintages: counted('vintage', 'value DESC'), types: counted('type', 'count DESC, value') };
  }

  // ---- for the sync engine ----

  /** The hash of the registry's answer for the account as last synced (null: never, or converted). */
  function inventoryAnswerHash(account: InventoryAccount): string | null {
    return db.prepared(inventoryOf).first({ account })?.answer_hash ?? null;
  }

  /** credit id → row hash of the account's cached credits. */
  function inventoryRowHashes(account: InventoryAccount): Map<string, string> {
    return new Map(db.prepared(rowHashesOf).all({ account }).map((r) => [r.id, r.row_hash]));
  }

  /**
   * A project's contract address and token ids as the synced inventories know them (the buffer
   * holds a share of every issuance), for finalize: one row per token id, newest vintage first.
   */
  function projectTokens(
    projectId: string,
  ): Array<{ tokenId: string; tokenAddress: string; serialization: string; vintage: string; type: string }> {
    return db.prepared(tokensOf).all({ projectId });
  }

  return {
    getInventory,
    searchInventoryCredits,
    inventoryCreditsOf,
    inventoryFacets,
    inventoryAnswerHash,
    inventoryRowHashes,
    projectTokens,
  };
}
