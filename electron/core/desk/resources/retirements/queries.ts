// Reads of the retirements list for the desk service: the search (an id, text, filters, sorts),
// the vintage menu with its counts, and one retirement.
import { sql, type RawBuilder } from 'kysely';
import type { z } from 'zod';
import { retirementFilters, retirementSearchInput, type RetirementRow, type RetirementSearchInput } from '@shared/desk/api';
import type { Retirement } from '@shared/registry/resources';
import type { CacheTables } from '@desk/cache/schema';
import { searchText } from '@desk/cache/fts-query';
import { indexReady, searchReady, SearchEntriesPending } from '@desk/cache/deferred-indexes';
import { allOf, orderBy, walkSortIndex, type FacetValue, type QueryBase } from '@desk/cache/queries';

// Each retirement sort walks its own index (migration 0003), which also holds the filter columns.
const RETIREMENT_SORTS = {
  createdAt: { columns: ['r.created_at', 'r.id'], index: 'retirements_by_time' },
  amount: { columns: ['r.amount', 'r.created_at', 'r.id'], index: 'retirements_by_amount' },
  beneficiary: { columns: ['r.beneficiary COLLATE NOCASE', 'r.created_at', 'r.id'], index: 'retirements_by_beneficiary' },
  project: { columns: ['r.project_name COLLATE NOCASE', 'r.created_at', 'r.id'], index: 'retirements_by_project_name' },
} as const;

const RETIREMENT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A retirements row as the lists read it: its id and the columns rows.ts derives. */
type Listed = Omit<CacheTables['retirements'], 'rowid' | 'row_hash' | 'json'>;

const COLUMNS = sql`r.id, r.created_at, r.is_claimed, r.amount, r.beneficiary, r.reason, r.organization_name, r.project_id,
                r.project_name, r.project_num, r.serialization, r.vintage`;

const toRetirementRow = (r: Listed): RetirementRow => ({
  id: r.id,
  createdAt: r.created_at,
  isClaimed: r.is_claimed === 1,
  amount: r.amount,
  beneficiary: r.beneficiary,
  reason: r.reason,
  organizationName: r.organization_name,
  projectId: r.project_id,
  projectName: r.project_name,
  projectNum: r.project_num,
  serialization: r.serialization,
  vintage: r.vintage,
});

/** The condition a search box's text puts on retirements (none for no text). */
function textCondition(text: ReturnType<typeof searchText>): RawBuilder<unknown> | null {
  // Beneficiaries starting with one character: a range of the beneficiary index, which holds
  // every sort column, so neither the count nor the page reads a row.
  if (text.kind === 'initial')
    return sql`r.beneficiary >= ${text.range.from} COLLATE NOCASE AND r.beneficiary < ${text.range.to} COLLATE NOCASE`;
  if (text.kind === 'match') return sql`r.rowid IN (SELECT rowid FROM retirements_fts WHERE retirements_fts MATCH ${text.match})`;
  return null;
}

export function createRetirementQueries(base: QueryBase) {
  const { db, memoized } = base;

  function searchRetirements(rawInput: RetirementSearchInput): {
    total: number;
    totalIsLowerBound?: boolean;
    rows: RetirementRow[];
    asOf: string | null;
  } {
    const input = base.parseInput(retirementSearchInput, rawInput);
    // One read: whether a sort index is there (a first sync's load may have left it to build after
    // its commit: cache/deferred-indexes.ts) and the rows read through it, from one state of the cache.
    return db.raw.transaction(() => searchIn(input)).deferred();
  }

  /**
   * The condition a search box's text puts on retirements, in the caller's read. Text matched by
   * words needs the search entries, which a first sync's load leaves to make after its commit
   * (cache/deferred-indexes.ts): until they are made such a search refuses, and the desk's method
   * waits for them (methods/searchable.ts).
   */
  function conditionOf(text: ReturnType<typeof searchText>): RawBuilder<unknown> | null {
    if (text.kind === 'match' && !searchReady(db, 'retirements_fts')) throw new SearchEntriesPending('retirements_fts');
    return textCondition(text);
  }

  /** A source of the retirements walking `index`, or the table itself while the index is not built. */
  const walking = (index: string) => (indexReady(db, index) ? `retirements r INDEXED BY ${index}` : 'retirements r');

  function searchIn(input: z.output<typeof retirementSearchInput>): ReturnType<typeof searchRetirements> {
    const f = input.filters;
    const filters: RawBuilder<unknown>[] = [];
    if (f.claimed !== undefined) filters.push(sql`r.is_claimed = ${f.claimed ? 1 : 0}`);
    if (f.vintage) filters.push(sql`r.vintage = ${f.vintage}`);
    if (f.projectId) filters.push(sql`r.project_id = ${f.projectId}`);
    const where = [...filters];
    // A retirement id typed or pasted whole finds exactly that retirement.
    const idQuery = RETIREMENT_ID.test(input.query.trim()) ? input.query.trim().toLowerCase() : null;
    const text: ReturnType<typeof searchText> = idQuery ? { kind: 'none' } : searchText(input.query);
    if (idQuery) where.push(sql`r.id = ${idQuery}`);
    const condition = conditionOf(text);
    if (condition) where.push(condition);
    const whereSql = where.length > 0 ? sql`WHERE ${allOf(where)}` : sql``;
    // Exact counts where they are cheap: the whole table, or the FTS table alone for text without
    // filters; otherwise counted up to the limit.
    const counted =
      where.length === 0
        ? { total: countRetirements() }
        : text.kind === 'match' && filters.length === 0
          ? { total: db.first(sql<{ n: number }>`SELECT count(*) AS n FROM retirements_fts WHERE retirements_fts MATCH ${text.match}`)!.n }
          : base.boundedCount(sql`retirements r ${whereSql}`);
    const relevance = input.sort.field === 'relevance' && text.kind === 'match';
    const page = sql`LIMIT ${input.limit} OFFSET ${input.offset}`;
    let records: Listed[];
    if (relevance && text.kind === 'match') {
      const filterSql = filters.length > 0 ? sql`WHERE ${allOf(filters)}` : sql``;
      records = db.all(
        sql<Listed>`SELECT ${COLUMNS} FROM (SELECT f.rowid AS rowid, bm25(retirements_fts, 5.0, 3.0, 1.0) AS score FROM retirements_fts f WHERE retirements_fts MATCH ${text.match}) m
           JOIN retirements r ON r.rowid = m.rowid ${filterSql} ORDER BY m.score, r.created_at DESC, r.id DESC ${page}`,
      );
    } else {
      const sort = RETIREMENT_SORTS[input.sort.field === 'relevance' ? 'createdAt' : input.sort.field];
      const order = sql.raw(orderBy(sort.columns, input.sort.direction));
      // Many matches: walk the sort index in order and stop after the page (see walkSortIndex).
      // Few matches: let SQLite fetch them and sort.
      // (A project's retirements are few and have their own index: never dense.)
      const dense =
        f.projectId === undefined && (where.length === 0 || walkSortIndex(counted.total, countRetirements(), input.offset, input.limit));
      const source = sql.raw(
        text.kind === 'initial' && f.projectId === undefined
          ? walking('retirements_by_beneficiary')
          : dense
            ? walking(sort.index)
            : 'retirements r',
      );
      records = db.all(
        sql<Listed>`SELECT ${COLUMNS} FROM retirements r WHERE r.rowid IN (
             SELECT r.rowid FROM ${source} ${whereSql} ORDER BY ${order} ${page}
           ) ORDER BY ${order}`,
      );
    }
    return { ...counted, rows: records.map(toRetirementRow), asOf: base.asOf('retirements') };
  }

  /**
   * The vintages retirements have, each with how many retirements choosing it would list: under the
   * search and the other filters. A chosen vintage matching nothing stays listed, with 0.
   */
  function retirementFacets(query = '', rawFilters: z.input<typeof retirementFilters> = {}): { vintages: FacetValue[] } {
    const f = base.parseInput(retirementFilters, rawFilters);
    // One read: whether the search entries are there, and the counts through them.
    return db.raw.transaction(() => facetsIn(query, f)).deferred();
  }

  function facetsIn(query: string, f: z.output<typeof retirementFilters>): { vintages: FacetValue[] } {
    const conditions: RawBuilder<unknown>[] = [];
    if (f.claimed !== undefined) conditions.push(sql`r.is_claimed = ${f.claimed ? 1 : 0}`);
    if (f.projectId) conditions.push(sql`r.project_id = ${f.projectId}`);
    const condition = conditionOf(searchText(query));
    if (condition) conditions.push(condition);
    const count = () =>
      db.all(
        sql<FacetValue>`SELECT r.vintage AS value, r.vintage AS label, count(*) AS count FROM retirements r
                 WHERE ${allOf([sql`r.vintage IS NOT NULL`, ...conditions])} GROUP BY r.vintage ORDER BY r.vintage DESC`,
      );
    const vintages = conditions.length === 0 ? memoized('retirement-vintages', count) : count();
    if (f.vintage && !vintages.some((v) => v.value === f.vintage))
      return { vintages: [...vintages, { value: f.vintage, label: f.vintage, count: 0 }] };
    return { vintages };
  }

  function getRetirement(id: string): { retirement: Retirement; asOf: string | null } | null {
    const row = db.first(db.q.selectFrom('retirements').select('json').where('id', '=', id));
    return row ? { retirement: JSON.parse(row.json) as Retirement, asOf: base.asOf('retirements') } : null;
  }

  /** Every retirement (a full index scan), kept until the cache changes. */
  function countRetirements(): number {
    return memoized(
      'count:retirements',
      () => db.first(db.q.selectFrom('retirements').select((eb) => eb.fn.countAll<number>().as('n')))!.n,
    );
  }

  return { searchRetirements, retirementFacets, getRetirement, countRetirements };
}
