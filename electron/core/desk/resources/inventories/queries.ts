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
} from '@shared/desk/api';
import type { InventorySummary, OrganizationSummary } from '@shared/registry/resources';
import { sql, type Kysely } from 'kysely';
import type { SqliteDatabase } from '@platform/db/database';
import type { CacheTables } from '@desk/cache/schema';
import type { Memoized } from '@desk/cache/memo';
import { countMatches, matchedRowids, searchPlan, textCondition, textShape, type Fragment } from './search';
import { indexReady } from '@desk/cache/deferred-indexes';

export interface InventoryQueryHelpers {
  /** Validates input against a desk schema; throws CacheInputError listing every problem. */
  parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S>;
  lastSuccessAt(): number | null;
  /** Keeps an answer until the cache changes (the connection's shared memo). */
  memoized: Memoized;
  walkSortIndex(matches: number, rows: number, offset: number, limit: number): boolean;
}

// The search's statements are sql fragments (search.ts says why); the fixed reads below are kysely.
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
const rowHashesOf = (v: AccountValues, q: Q) =>
  q.selectFrom('inventory_credits').select(['id', 'row_hash']).where('account', '=', v.account);
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
    // One read: whether the sort index is there (a first sync's load may have left it to build after
    // its commit: cache/deferred-indexes.ts) and the rows read through it, from one state of the cache.
    return db.raw.transaction(() => searchIn(input)).deferred();
  }

  function searchIn(input: ReturnType<typeof parseSearch>): ReturnType<typeof searchInventoryCredits> {
    const plan = searchPlan(input);
    const { sort, order } = plan;
    const shape = plan.match ? textShape(db, plan) : null;
    const matches = countMatches(db, plan, shape, () => countCredits(input.account));
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
    if (dense && indexReady(db, sort.index))
      pageRowids = sql`SELECT c.rowid FROM inventory_credits c INDEXED BY ${sql.raw(sort.index)} WHERE ${where} ORDER BY ${order} ${page}`;
    else if (shape)
      pageRowids = sql`SELECT c.rowid FROM inventory_credits c WHERE c.rowid IN (${matchedRowids(plan, shape)}) ORDER BY ${order} ${page}`;
    else pageRowids = sql`SELECT c.rowid FROM inventory_credits c WHERE ${where} ORDER BY ${order} ${page}`;
    const records = db.all(
      sql<ListedCredit>`SELECT ${ROW_COLUMNS} FROM inventory_credits c WHERE c.rowid IN (${pageRowids}) ORDER BY ${order}`,
    );
    return { ...counted, rows: records.map(toRow), asOf };
  }

  /**
   * Every credit a search matches, in its order, read row by row from SQLite (the CSV export).
   * Consume it without other statements on this connection in between (it holds a read cursor).
   */
  function* inventoryCreditsOf(rawInput: Omit<InventoryCreditSearchInput, 'offset' | 'limit'>): Generator<InventoryCreditRow> {
    const input = parseSearch(rawInput);
    const plan = searchPlan(input);
    const where = plan.text.kind === 'match' ? sql`c.rowid IN (${matchedRowids(plan, textShape(db, plan))})` : plan.where;
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
      const where = plan.text.kind === 'match' ? sql`c.rowid IN (${matchedRowids(plan, textShape(db, plan))})` : plan.where;
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
    return new Map(
      db
        .prepared(rowHashesOf)
        .all({ account })
        .map((r) => [r.id, r.row_hash]),
    );
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
