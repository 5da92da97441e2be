// Reads for the desk service: each returns exactly a shared/desk/api.ts shape (minus `offline`,
// which only the service knows), with `asOf` = when the resource behind it last synced.
import { z } from 'zod';
import {
  projectFilters,
  projectSearchInput,
  retirementFilters,
  retirementSearchInput,
  SEARCH_COUNT_LIMIT,
  SYNC_RESOURCES,
  type ProjectRow,
  type ProjectSearchInput,
  type RetirementRow,
  type RetirementSearchInput,
  type SyncResource,
} from '@shared/desk/api';
import type { InternalProject, Organization, Project, Reservation, Retirement, WarehouseInventoryCredit } from '@shared/registry/resources';
import type { SqliteDatabase } from '@platform/db/database';
import type { CacheTables } from './schema';
import type { ProjectCreditsAnswer } from '../client/responses';
import { createInventoryQueries } from '@desk/resources/inventories/queries';
import { versionedMemo } from './memo';
import { searchText } from './fts-query';
import type { ProjectScope } from './types';
import type { RetirementColumns } from './rows';
import { searchFilters } from './search-filters';

/** The renderer (or a caller) asked for something the desk API does not allow; nothing was read. */
export class CacheInputError extends Error {
  override readonly name = 'CacheInputError';
  constructor(readonly issues: string[]) {
    super(`invalid search: ${issues.join('; ')}`);
  }
}

function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw new CacheInputError(result.error.issues.map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`));
  return result.data;
}

const isoOrNull = (ms: number | null | undefined): string | null => (ms === null || ms === undefined ? null : new Date(ms).toISOString());

export interface FacetValue {
  value: string;
  label: string;
  count: number;
}
export interface ProjectFacets {
  statuses: FacetValue[];
  countries: FacetValue[];
  sectors: FacetValue[];
  methodologies: FacetValue[];
  types: FacetValue[];
  vintages: FacetValue[];
}

// Each project sort has an index starting with the scope (migrations 0001 and 0003).
const PROJECT_SORTS = {
  num: { columns: ['p.num_sort', 'p.id'], index: 'projects_by_num' },
  name: { columns: ['p.full_name COLLATE NOCASE', 'p.id'], index: 'projects_by_name' },
  status: { columns: ['p.status', 'p.num_sort'], index: 'projects_by_status' },
  country: { columns: ['p.country_name', 'p.num_sort'], index: 'projects_by_country_name' },
  startDate: { columns: ['p.start_date', 'p.id'], index: 'projects_by_start' },
} as const;

// Each retirement sort walks its own index (migration 0003), which also holds the filter columns.
const RETIREMENT_SORTS = {
  createdAt: { columns: ['r.created_at', 'r.id'], index: 'retirements_by_time' },
  amount: { columns: ['r.amount', 'r.created_at', 'r.id'], index: 'retirements_by_amount' },
  beneficiary: { columns: ['r.beneficiary COLLATE NOCASE', 'r.created_at', 'r.id'], index: 'retirements_by_beneficiary' },
  project: { columns: ['r.project_name COLLATE NOCASE', 'r.created_at', 'r.id'], index: 'retirements_by_project_name' },
} as const;

/**
 * Whether a sorted page should walk the sort index (checking each entry against the matches) rather
 * than read every match and sort. Walking reads about (offset + limit) × rows / matches index
 * entries, each cheap; reading the matches costs a lookup of a wide row each, roughly 30 times as
 * much. So walk once matches² × 30 ≥ (offset + limit) × rows.
 */
const RETIREMENT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function walkSortIndex(matches: number, rows: number, offset: number, limit: number): boolean {
  return matches * matches * 30 >= (offset + limit) * rows;
}

const orderBy = (columns: readonly string[], direction: 'asc' | 'desc') => columns.map((c) => `${c} ${direction.toUpperCase()}`).join(', ');

interface ProjectRowRecord {
  id: string;
  num: string;
  full_name: string;
  short_description: string;
  status: string;
  country_code: string | null;
  sector_title: string;
  methodology_title: string;
  type_title: string;
  proponents: string;
  start_date: string;
  is_public: number;
}

/** A retirements row as the lists read it: its id and the columns rows.ts derives. */
type RetirementRecord = { id: string } & RetirementColumns;

export function createCacheQueries(db: SqliteDatabase<CacheTables>) {
  /** Changes whenever this connection changes a row (total_changes) or another one commits (data_version). */
  const cacheVersion = () =>
    `${db.prepare('SELECT total_changes()').pluck().get() as number}:${db.raw.pragma('data_version', { simple: true }) as number}`;
  const memoized = versionedMemo(cacheVersion);

  const lastSuccessOf = (resource: SyncResource): number | null =>
    (db.prepare('SELECT last_success_at FROM sync_state WHERE resource = ?').pluck().get(resource) as number | null | undefined) ?? null;

  /** Counts up to SEARCH_COUNT_LIMIT rows of a query; more than that is reported as a lower bound. */
  function boundedCount(fromWhere: string, params: Record<string, unknown>): { total: number; totalIsLowerBound?: true } {
    const counted = db
      .prepare(`SELECT count(*) FROM (SELECT 1 FROM ${fromWhere} LIMIT ${SEARCH_COUNT_LIMIT + 1})`)
      .pluck()
      .get(params) as number;
    return counted > SEARCH_COUNT_LIMIT ? { total: SEARCH_COUNT_LIMIT, totalIsLowerBound: true } : { total: counted };
  }

  function searchProjects(rawInput: ProjectSearchInput): {
    total: number;
    totalIsLowerBound?: boolean;
    rows: ProjectRow[];
    asOf: string | null;
  } {
    const input = parseInput(projectSearchInput, rawInput);
    const { conditions: filters, params, add } = searchFilters({ scope: input.scope });
    const f = input.filters;
    if (f.status) add('p.status = @status', 'status', f.status);
    if (f.countryCode) add('p.country_code = @country', 'country', f.countryCode.toUpperCase());
    if (f.sectorId) add('p.sector_id = @sector', 'sector', f.sectorId);
    if (f.methodologyId) add('p.methodology_id = @methodology', 'methodology', f.methodologyId);
    if (f.typeId) add('p.type_id = @type', 'type', f.typeId);
    if (f.vintage) add('p.id IN (SELECT v.project_id FROM project_vintages v WHERE v.vintage = @vintage)', 'vintage', f.vintage);
    const where = ['p.scope = @scope', ...filters];
    const fts = `projects_${input.scope}_fts`;
    const text = searchText(input.query);
    if (text.kind === 'initial') {
      // One character: names starting with it (a one-letter prefix would match most of the cache).
      Object.assign(params, text.range);
      where.push('p.full_name >= @from COLLATE NOCASE AND p.full_name < @to COLLATE NOCASE');
    } else if (text.kind === 'match') {
      params.match = text.match;
      where.push(`p.rowid IN (SELECT rowid FROM ${fts} WHERE ${fts} MATCH @match)`);
    }
    const whereSql = where.join(' AND ');
    const relevance = input.sort.field === 'relevance' && text.kind === 'match';
    // Without filters, the scope's FTS table alone holds the count.
    const counted =
      text.kind === 'match' && filters.length === 0
        ? { total: db.prepare(`SELECT count(*) FROM ${fts} WHERE ${fts} MATCH @match`).pluck().get(params) as number }
        : boundedCount(`projects p WHERE ${whereSql}`, params);
    const isPublic = input.scope === 'public' ? '1' : "EXISTS (SELECT 1 FROM projects q WHERE q.scope = 'public' AND q.id = p.id)";
    const columns = `p.id, p.num, p.full_name, p.short_description, p.status, p.country_code, p.sector_title, p.methodology_title,
                p.type_title, p.proponents, p.start_date, ${isPublic} AS is_public`;
    let records: ProjectRowRecord[];
    if (relevance) {
      // bm25: lower is better; name and number weigh most. Ranked inside FTS5; only the page's
      // rows are read from projects (filters, when given, are checked on the ranked matches).
      // Equal scores keep cache order (rowid): ordering them by number would read every match.
      const ranked = `SELECT f.rowid AS rowid, bm25(${fts}, 10.0, 8.0, 1.0, 2.0, 2.0, 3.0) AS score FROM ${fts} f WHERE ${fts} MATCH @match`;
      const filterSql = filters.length > 0 ? `AND ${filters.join(' AND ')}` : '';
      records = db
        .prepare(
          `SELECT ${columns} FROM (${ranked} ORDER BY score, f.rowid ${filterSql ? '' : 'LIMIT @limit OFFSET @offset'}) m
           JOIN projects p ON p.rowid = m.rowid WHERE p.scope = @scope ${filterSql}
           ORDER BY m.score, m.rowid ${filterSql ? 'LIMIT @limit OFFSET @offset' : ''}`,
        )
        .all({ ...params, limit: input.limit, offset: input.offset }) as ProjectRowRecord[];
    } else {
      const sort = PROJECT_SORTS[input.sort.field === 'relevance' ? 'num' : input.sort.field];
      const order = orderBy(sort.columns, input.sort.direction);
      // Many matches: walk the sort index and stop after the page (SQLite would otherwise read and
      // sort every match). The page's rowids come from the index; only those rows are read whole,
      // so a deep offset skips index entries, not wide rows.
      const dense = where.length > 1 && walkSortIndex(counted.total, countProjects(input.scope), input.offset, input.limit);
      records = db
        .prepare(
          `SELECT ${columns} FROM projects p WHERE p.rowid IN (
             SELECT p.rowid FROM projects p ${dense ? `INDEXED BY ${sort.index}` : ''} WHERE ${whereSql} ORDER BY ${order} LIMIT @limit OFFSET @offset
           ) ORDER BY ${order}`,
        )
        .all({ ...params, limit: input.limit, offset: input.offset }) as ProjectRowRecord[];
    }
    return {
      ...counted,
      rows: records.map((r) => ({
        id: r.id,
        num: r.num,
        fullName: r.full_name,
        shortDescription: r.short_description,
        status: r.status,
        countryCode: r.country_code,
        sector: r.sector_title,
        methodology: r.methodology_title,
        type: r.type_title,
        proponents: r.proponents,
        startDate: r.start_date,
        isPublic: r.is_public === 1,
      })),
      asOf: isoOrNull(lastSuccessOf(input.scope === 'public' ? 'projects' : 'internalProjects')),
    };
  }

  /**
   * The filter menus' values with how many projects each would list. Without a search or filter,
   * the scope's (kept until the cache changes); otherwise each facet is counted under the search and
   * the OTHER filters (its own choice does not narrow its own counts), so a count is the number of
   * rows choosing it shows. A chosen value matching nothing stays listed, with 0.
   */
  function projectFacets(scope: ProjectScope = 'public', query = '', rawFilters: z.input<typeof projectFilters> = {}): ProjectFacets {
    if (scope !== 'public' && scope !== 'internal') throw new CacheInputError([`scope: must be public or internal`]);
    const filters = parseInput(projectFilters, rawFilters);
    const narrowed = query.trim() !== '' || Object.values(filters).some((v) => v !== undefined);
    if (!narrowed) return memoized(`facets:${scope}`, () => computeFacets(scope));
    const whole = memoized(`facets:${scope}`, () => computeFacets(scope));
    type Key = keyof typeof filters;
    const under = (except: Key) => projectConditions(scope, query, { ...filters, [except]: undefined });
    const labelled = (values: FacetValue[], all: FacetValue[], chosen: string | undefined) => {
      const labels = new Map(all.map((v) => [v.value, v.label]));
      const out = values.map((v) => ({ ...v, label: labels.get(v.value) ?? v.label }));
      if (chosen && !out.some((v) => v.value === chosen)) out.push({ value: chosen, label: labels.get(chosen) ?? chosen, count: 0 });
      return out;
    };
    const facet = (key: Key, column: string, all: FacetValue[]) => {
      const { whereSql, params } = under(key);
      const values = db
        .prepare(
          `SELECT p.${column} AS value, p.${column} AS label, count(*) AS count FROM projects p WHERE ${whereSql} AND p.${column} IS NOT NULL
           GROUP BY p.${column} ORDER BY count DESC, value`,
        )
        .all(params) as FacetValue[];
      return labelled(values, all, key === 'countryCode' ? filters.countryCode?.toUpperCase() : filters[key]);
    };
    const vintage = under('vintage');
    const vintages = db
      .prepare(
        `SELECT v.vintage AS value, v.vintage AS label, count(*) AS count FROM project_vintages v
         JOIN projects p ON p.id = v.project_id WHERE ${vintage.whereSql} GROUP BY v.vintage ORDER BY v.vintage DESC`,
      )
      .all(vintage.params) as FacetValue[];
    return {
      statuses: facet('status', 'status', whole.statuses),
      countries: facet('countryCode', 'country_code', whole.countries),
      sectors: facet('sectorId', 'sector_id', whole.sectors),
      methodologies: facet('methodologyId', 'methodology_id', whole.methodologies),
      types: facet('typeId', 'type_id', whole.types),
      vintages: labelled(vintages, whole.vintages, filters.vintage),
    };
  }

  /** The WHERE of a project search (as searchProjects builds it), for counting facets. */
  function projectConditions(scope: ProjectScope, query: string, f: z.output<typeof projectFilters>) {
    const { conditions, params, add } = searchFilters({ scope });
    if (f.status) add('p.status = @status', 'status', f.status);
    if (f.countryCode) add('p.country_code = @country', 'country', f.countryCode.toUpperCase());
    if (f.sectorId) add('p.sector_id = @sector', 'sector', f.sectorId);
    if (f.methodologyId) add('p.methodology_id = @methodology', 'methodology', f.methodologyId);
    if (f.typeId) add('p.type_id = @type', 'type', f.typeId);
    if (f.vintage) add('p.id IN (SELECT v.project_id FROM project_vintages v WHERE v.vintage = @vintage)', 'vintage', f.vintage);
    const where = ['p.scope = @scope', ...conditions];
    const fts = `projects_${scope}_fts`;
    const text = searchText(query);
    if (text.kind === 'initial') {
      Object.assign(params, text.range);
      where.push('p.full_name >= @from COLLATE NOCASE AND p.full_name < @to COLLATE NOCASE');
    } else if (text.kind === 'match') {
      params.match = text.match;
      where.push(`p.rowid IN (SELECT rowid FROM ${fts} WHERE ${fts} MATCH @match)`);
    }
    return { whereSql: where.join(' AND '), params };
  }

  /**
   * The vintages retirements have, each with how many retirements choosing it would list: under the
   * search and the other filters. A chosen vintage matching nothing stays listed, with 0.
   */
  function retirementFacets(query = '', rawFilters: z.input<typeof retirementFilters> = {}): { vintages: FacetValue[] } {
    const f = parseInput(retirementFilters, rawFilters);
    const { conditions, params, add } = searchFilters();
    if (f.claimed !== undefined) add('r.is_claimed = @claimed', 'claimed', f.claimed ? 1 : 0);
    if (f.projectId) add('r.project_id = @project', 'project', f.projectId);
    const text = searchText(query);
    if (text.kind === 'initial') {
      Object.assign(params, text.range);
      conditions.push('r.beneficiary >= @from COLLATE NOCASE AND r.beneficiary < @to COLLATE NOCASE');
    } else if (text.kind === 'match') {
      params.match = text.match;
      conditions.push('r.rowid IN (SELECT rowid FROM retirements_fts WHERE retirements_fts MATCH @match)');
    }
    const sql = `SELECT r.vintage AS value, r.vintage AS label, count(*) AS count FROM retirements r
                 WHERE ${['r.vintage IS NOT NULL', ...conditions].join(' AND ')} GROUP BY r.vintage ORDER BY r.vintage DESC`;
    const count = () => db.prepare(sql).all(params) as FacetValue[];
    const vintages = conditions.length === 0 ? memoized('retirement-vintages', count) : count();
    if (f.vintage && !vintages.some((v) => v.value === f.vintage))
      return { vintages: [...vintages, { value: f.vintage, label: f.vintage, count: 0 }] };
    return { vintages };
  }

  function computeFacets(scope: ProjectScope): ProjectFacets {
    // Counted on the (scope, value) index alone; the label is read from one row of each group
    // (rows with the same id carry the same title), not from every row.
    const facet = (value: string, label: string) =>
      db
        .prepare(
          `SELECT g.value, coalesce((SELECT ${label} FROM projects l WHERE l.scope = @scope AND l.${value} = g.value LIMIT 1), g.value) AS label, g.count
           FROM (SELECT ${value} AS value, count(*) AS count FROM projects WHERE scope = @scope AND ${value} IS NOT NULL GROUP BY ${value}) g
           ORDER BY g.count DESC, label`,
        )
        .all({ scope }) as FacetValue[];
    return {
      statuses: facet('status', 'status'),
      countries: facet('country_code', 'l.country_name'),
      sectors: facet('sector_id', 'l.sector_title'),
      methodologies: facet('methodology_id', 'l.methodology_title'),
      types: facet('type_id', 'l.type_title'),
      vintages: db
        .prepare(
          `SELECT v.vintage AS value, v.vintage AS label, count(*) AS count FROM project_vintages v
           JOIN projects p ON p.scope = ? AND p.id = v.project_id GROUP BY v.vintage ORDER BY v.vintage DESC`,
        )
        .all(scope) as FacetValue[],
    };
  }

  function getProject(
    id: string,
  ): { project: InternalProject | Project; credits: ProjectCreditsAnswer | null; asOf: string | null } | null {
    const detail = db.prepare('SELECT json FROM project_details WHERE id = ?').pluck().get(id) as string | undefined;
    const listed = detail
      ? undefined
      : (db.prepare(`SELECT json, scope FROM projects WHERE id = ? ORDER BY scope = 'internal' DESC LIMIT 1`).get(id) as
          { json: string; scope: ProjectScope } | undefined);
    if (!detail && !listed) return null;
    const credits = db.prepare('SELECT json FROM project_credits WHERE project_id = ?').pluck().get(id) as string | undefined;
    const resource: SyncResource = detail ? 'projectDetails' : listed!.scope === 'public' ? 'projects' : 'internalProjects';
    return {
      project: JSON.parse(detail ?? listed!.json) as InternalProject | Project,
      credits: credits ? (JSON.parse(credits) as ProjectCreditsAnswer) : null,
      asOf: isoOrNull(lastSuccessOf(resource)),
    };
  }

  function searchRetirements(rawInput: RetirementSearchInput): {
    total: number;
    totalIsLowerBound?: boolean;
    rows: RetirementRow[];
    asOf: string | null;
  } {
    const input = parseInput(retirementSearchInput, rawInput);
    const { conditions: filters, params, add } = searchFilters();
    const f = input.filters;
    if (f.claimed !== undefined) add('r.is_claimed = @claimed', 'claimed', f.claimed ? 1 : 0);
    if (f.vintage) add('r.vintage = @vintage', 'vintage', f.vintage);
    if (f.projectId) add('r.project_id = @project', 'project', f.projectId);
    const where = [...filters];
    // A retirement id typed or pasted whole finds exactly that retirement.
    const idQuery = RETIREMENT_ID.test(input.query.trim()) ? input.query.trim().toLowerCase() : null;
    const text: ReturnType<typeof searchText> = idQuery ? { kind: 'none' } : searchText(input.query);
    if (idQuery) {
      params.id = idQuery;
      where.push('r.id = @id');
    } else if (text.kind === 'initial') {
      // Beneficiaries starting with the character: a range of the beneficiary index, which holds
      // every sort column, so neither the count nor the page reads a row.
      Object.assign(params, text.range);
      where.push('r.beneficiary >= @from COLLATE NOCASE AND r.beneficiary < @to COLLATE NOCASE');
    } else if (text.kind === 'match') {
      params.match = text.match;
      where.push('r.rowid IN (SELECT rowid FROM retirements_fts WHERE retirements_fts MATCH @match)');
    }
    const whereSql = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
    // Exact counts where they are cheap: the whole table, or the FTS table alone for text without
    // filters; otherwise counted up to the limit.
    const counted =
      where.length === 0
        ? { total: countRetirements() }
        : text.kind === 'match' && filters.length === 0
          ? { total: db.prepare('SELECT count(*) FROM retirements_fts WHERE retirements_fts MATCH @match').pluck().get(params) as number }
          : boundedCount(`retirements r ${whereSql}`, params);
    const relevance = input.sort.field === 'relevance' && text.kind === 'match';
    const columns = `r.id, r.created_at, r.is_claimed, r.amount, r.beneficiary, r.reason, r.organization_name, r.project_id,
                r.project_name, r.project_num, r.serialization, r.vintage`;
    let records: RetirementRecord[];
    const page = { ...params, limit: input.limit, offset: input.offset };
    if (relevance) {
      const filterSql = filters.length > 0 ? `WHERE ${filters.join(' AND ')}` : '';
      records = db
        .prepare(
          `SELECT ${columns} FROM (SELECT f.rowid AS rowid, bm25(retirements_fts, 5.0, 3.0, 1.0) AS score FROM retirements_fts f WHERE retirements_fts MATCH @match) m
           JOIN retirements r ON r.rowid = m.rowid ${filterSql} ORDER BY m.score, r.created_at DESC, r.id DESC LIMIT @limit OFFSET @offset`,
        )
        .all(page) as RetirementRecord[];
    } else {
      const sort = RETIREMENT_SORTS[input.sort.field === 'relevance' ? 'createdAt' : input.sort.field];
      const order = orderBy(sort.columns, input.sort.direction);
      // Many matches: walk the sort index in order and stop after the page (see walkSortIndex).
      // Few matches: let SQLite fetch them and sort.
      // (A project's retirements are few and have their own index: never dense.)
      const dense =
        f.projectId === undefined && (where.length === 0 || walkSortIndex(counted.total, countRetirements(), input.offset, input.limit));
      const source =
        text.kind === 'initial' && f.projectId === undefined
          ? 'retirements r INDEXED BY retirements_by_beneficiary'
          : dense
            ? `retirements r INDEXED BY ${sort.index}`
            : 'retirements r';
      records = db
        .prepare(
          `SELECT ${columns} FROM retirements r WHERE r.rowid IN (
             SELECT r.rowid FROM ${source} ${whereSql} ORDER BY ${order} LIMIT @limit OFFSET @offset
           ) ORDER BY ${order}`,
        )
        .all(page) as RetirementRecord[];
    }
    return {
      ...counted,
      rows: records.map((r) => ({
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
      })),
      asOf: isoOrNull(lastSuccessOf('retirements')),
    };
  }

  function getRetirement(id: string): { retirement: Retirement; asOf: string | null } | null {
    const json = db.prepare('SELECT json FROM retirements WHERE id = ?').pluck().get(id) as string | undefined;
    return json ? { retirement: JSON.parse(json) as Retirement, asOf: isoOrNull(lastSuccessOf('retirements')) } : null;
  }

  function listOrganizations(): { organizations: (Organization & { installed: boolean })[]; asOf: string | null } {
    const rows = db.prepare('SELECT json, installed FROM organizations ORDER BY installed DESC, full_name COLLATE NOCASE, id').all() as {
      json: string;
      installed: number;
    }[];
    return {
      organizations: rows.map((r) => ({ ...(JSON.parse(r.json) as Organization), installed: r.installed === 1 })),
      asOf: isoOrNull(lastSuccessOf('organizations')),
    };
  }

  function getWarehouse(organizationId: string): {
    organizationId: string;
    organizationName: string;
    canWrite: boolean;
    credits: WarehouseInventoryCredit[];
    reservations: Reservation[];
    asOf: string | null;
  } | null {
    const row = db.prepare('SELECT * FROM warehouses WHERE organization_id = ?').get(organizationId) as
      | {
          organization_id: string;
          organization_name: string;
          can_write: number;
          credits_json: string;
          reservations_json: string;
          fetched_at: number;
        }
      | undefined;
    if (!row) return null;
    return {
      organizationId: row.organization_id,
      organizationName: row.organization_name,
      canWrite: row.can_write === 1,
      credits: JSON.parse(row.credits_json) as WarehouseInventoryCredit[],
      reservations: JSON.parse(row.reservations_json) as Reservation[],
      asOf: isoOrNull(row.fetched_at),
    };
  }

  /** Last successful sync per resource (ISO), null for never. */
  function lastSuccess(): Record<SyncResource, string | null> {
    const rows = db.prepare('SELECT resource, last_success_at FROM sync_state').all() as {
      resource: string;
      last_success_at: number | null;
    }[];
    const byResource = new Map(rows.map((r) => [r.resource, r.last_success_at]));
    return Object.fromEntries(SYNC_RESOURCES.map((r) => [r, isoOrNull(byResource.get(r))])) as Record<SyncResource, string | null>;
  }

  function syncState(resource: SyncResource) {
    return (db.prepare('SELECT * FROM sync_state WHERE resource = ?').get(resource) ?? null) as {
      resource: string;
      last_success_at: number | null;
      last_attempt_at: number | null;
      last_error: string | null;
      last_full_at: number | null;
      watermark: string | null;
      total: number | null;
    } | null;
  }

  // ---- for the sync engine ----

  function pageHash(resource: SyncResource, page: number): { hash: string; ids: string[] } | null {
    const row = db.prepare('SELECT hash, ids FROM page_hashes WHERE resource = ? AND page = ?').get(resource, page) as
      { hash: string; ids: string } | undefined;
    return row ? { hash: row.hash, ids: JSON.parse(row.ids) as string[] } : null;
  }

  /** id → row hash of the cached list rows of a resource. */
  function listRowHashes(resource: 'projects' | 'internalProjects' | 'retirements', ids: readonly string[]): Map<string, string> {
    if (ids.length === 0) return new Map();
    const placeholders = ids.map(() => '?').join(',');
    const rows = (
      resource === 'retirements'
        ? db.prepare(`SELECT id, row_hash FROM retirements WHERE id IN (${placeholders})`).all(...ids)
        : db
            .prepare(`SELECT id, row_hash FROM projects WHERE scope = ? AND id IN (${placeholders})`)
            .all(resource === 'projects' ? 'public' : 'internal', ...ids)
    ) as { id: string; row_hash: string }[];
    return new Map(rows.map((r) => [r.id, r.row_hash]));
  }

  /** The changes feed's stored cursor (writers.setFeedCursor), null when there is none. */
  function feedCursor(): string | null {
    return feedCursorOf('feed');
  }

  /** A stored cursor of the changes feed: the app's ('feed') or an installation's ('feed:installation:<id>'). */
  function feedCursorOf(key: string): string | null {
    const row = db.prepare(`SELECT watermark FROM sync_state WHERE resource = ?`).get(key) as { watermark: string | null } | undefined;
    return row?.watermark ?? null;
  }

  /** Every project of a scope with its list row hash. */
  function projectHashes(scope: ProjectScope): Map<string, string> {
    const rows = db.prepare('SELECT id, row_hash FROM projects WHERE scope = ?').all(scope) as { id: string; row_hash: string }[];
    return new Map(rows.map((r) => [r.id, r.row_hash]));
  }

  /** project id → the list hash the per-project answer was fetched for, and when. */
  function perProjectHashes(resource: 'projectDetails' | 'credits'): Map<string, { hash: string; fetchedAt: number }> {
    const sql =
      resource === 'projectDetails'
        ? 'SELECT id, list_hash, fetched_at FROM project_details'
        : 'SELECT project_id AS id, list_hash, fetched_at FROM project_credits';
    const rows = db.prepare(sql).all() as { id: string; list_hash: string; fetched_at: number }[];
    return new Map(rows.map((r) => [r.id, { hash: r.list_hash, fetchedAt: r.fetched_at }]));
  }

  // Row counts (a full index scan each) are kept until the cache changes, like facets.
  const memoCount = (key: string, sql: string, ...args: unknown[]): number =>
    memoized(
      `count:${key}`,
      () =>
        db
          .prepare(sql)
          .pluck()
          .get(...args) as number,
    );

  function countProjects(scope: ProjectScope): number {
    return memoCount(`projects:${scope}`, 'SELECT count(*) FROM projects WHERE scope = ?', scope);
  }

  function countRetirements(): number {
    return memoCount('retirements', 'SELECT count(*) FROM retirements');
  }

  /** Organization ids the cache knows as proponents of projects. */
  function proponentIds(): string[] {
    // Internal projects, when the cache holds them, are every project (the public ones included):
    // reading one scope's JSON, not both, halves the work (a tenth of a second at --scale 100).
    return db
      .prepare(
        `SELECT DISTINCT json_extract(o.value, '$.id') FROM projects p, json_each(p.json, '$.proponents') o
         WHERE p.scope = (SELECT CASE WHEN EXISTS (SELECT 1 FROM projects WHERE scope = 'internal') THEN 'internal' ELSE 'public' END)`,
      )
      .pluck()
      .all() as string[];
  }

  /** What the cache knows of each organization it holds or was refused, for staleness checks. */
  function organizationFreshness(): {
    cached: Map<string, { fetchedAt: number; installed: boolean; needsRefresh: boolean }>;
    unseen: Map<string, number>;
  } {
    const rows = db.prepare('SELECT id, fetched_at, installed, needs_refresh FROM organizations').all() as {
      id: string;
      fetched_at: number;
      installed: number;
      needs_refresh: number;
    }[];
    const unseen = db.prepare('SELECT id, checked_at FROM organizations_unseen').all() as { id: string; checked_at: number }[];
    return {
      cached: new Map(
        rows.map((r) => [r.id, { fetchedAt: r.fetched_at, installed: r.installed === 1, needsRefresh: r.needs_refresh === 1 }]),
      ),
      unseen: new Map(unseen.map((u) => [u.id, u.checked_at])),
    };
  }

  // The registry accounts' inventories (resources/inventories/queries.ts).
  const inventories = createInventoryQueries(db, {
    parseInput,
    memoized,
    walkSortIndex,
    lastSuccessAt: () => lastSuccessOf('inventories'),
  });

  return {
    organizationFreshness,
    searchProjects,
    projectFacets,
    retirementFacets,
    getProject,
    ...inventories,
    searchRetirements,
    getRetirement,
    listOrganizations,
    getWarehouse,
    lastSuccess,
    syncState,
    pageHash,
    listRowHashes,
    projectHashes,
    feedCursor,
    feedCursorOf,
    perProjectHashes,
    countRetirements,
    proponentIds,
  };
}

export type CacheQueries = ReturnType<typeof createCacheQueries>;
