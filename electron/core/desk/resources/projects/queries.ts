// Reads of the project lists for the desk service: the list search (text, filters, sorts), the
// filter menus with their counts, one project with its per-project answers, and what the sync
// engine asks of the lists (row hashes, proponents, counts).
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { z } from 'zod';
import { projectFilters, projectSearchInput, type ProjectRow, type ProjectSearchInput, type SyncResource } from '@shared/desk/api';
import type { InternalProject, Project } from '@shared/registry/resources';
import type { CacheTables } from '@desk/cache/schema';
import type { ProjectScope } from '@desk/cache/types';
import type { ProjectCreditsAnswer } from '@desk/client/responses';
import { searchText } from '@desk/cache/fts-query';
import { allOf, CacheInputError, orderBy, walkSortIndex, type FacetValue, type QueryBase } from '@desk/cache/queries';

export interface ProjectFacets {
  statuses: FacetValue[];
  countries: FacetValue[];
  sectors: FacetValue[];
  methodologies: FacetValue[];
  types: FacetValue[];
  vintages: FacetValue[];
}

// Each project sort has an index starting with the scope (migrations 0001 and 0003).
const idOfNum = (v: { num: string }, q: Kysely<CacheTables>) =>
  q.selectFrom('projects').select('id').where('num', '=', v.num).orderBy('scope', 'desc').limit(1);

const PROJECT_SORTS = {
  num: { columns: ['p.num_sort', 'p.id'], index: 'projects_by_num' },
  name: { columns: ['p.full_name COLLATE NOCASE', 'p.id'], index: 'projects_by_name' },
  status: { columns: ['p.status', 'p.num_sort'], index: 'projects_by_status' },
  country: { columns: ['p.country_name', 'p.num_sort'], index: 'projects_by_country_name' },
  startDate: { columns: ['p.start_date', 'p.id'], index: 'projects_by_start' },
} as const;

/** The columns of a list row as the search reads them, and whether the project is public. */
type Listed = Pick<
  CacheTables['projects'],
  | 'id'
  | 'num'
  | 'full_name'
  | 'short_description'
  | 'status'
  | 'country_code'
  | 'sector_title'
  | 'methodology_title'
  | 'type_title'
  | 'proponents'
  | 'start_date'
> & { is_public: number };

/** The facets' columns (a closed set: they are written into the statement). */
type FacetColumn = 'status' | 'country_code' | 'sector_id' | 'methodology_id' | 'type_id';

/** The search's conditions on a scope's projects: its filters apart (they also narrow ranked matches), and its text. */
function projectWhere(scope: ProjectScope, query: string, f: z.output<typeof projectFilters>) {
  const filters: RawBuilder<unknown>[] = [];
  if (f.status) filters.push(sql`p.status = ${f.status}`);
  if (f.countryCode) filters.push(sql`p.country_code = ${f.countryCode.toUpperCase()}`);
  if (f.sectorId) filters.push(sql`p.sector_id = ${f.sectorId}`);
  if (f.methodologyId) filters.push(sql`p.methodology_id = ${f.methodologyId}`);
  if (f.typeId) filters.push(sql`p.type_id = ${f.typeId}`);
  if (f.vintage) filters.push(sql`p.id IN (SELECT v.project_id FROM project_vintages v WHERE v.vintage = ${f.vintage})`);
  const where = [sql`p.scope = ${scope}`, ...filters];
  // The scope's FTS table (migration 0003); the scope is one of two names, never the caller's text.
  const fts = sql.raw(scope === 'public' ? 'projects_public_fts' : 'projects_internal_fts');
  const text = searchText(query);
  if (text.kind === 'initial') {
    // One character: names starting with it (a one-letter prefix would match most of the cache).
    where.push(sql`p.full_name >= ${text.range.from} COLLATE NOCASE AND p.full_name < ${text.range.to} COLLATE NOCASE`);
  } else if (text.kind === 'match') {
    where.push(sql`p.rowid IN (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ${text.match})`);
  }
  return { filters, where, fts, text };
}

const toProjectRow = (r: Listed): ProjectRow => ({
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
});

/** The project filter menus, each value with its count. */
function createProjectFacets(base: QueryBase) {
  const { db, memoized } = base;

  /**
   * The filter menus' values with how many projects each would list. Without a search or filter,
   * the scope's (kept until the cache changes); otherwise each facet is counted under the search and
   * the OTHER filters (its own choice does not narrow its own counts), so a count is the number of
   * rows choosing it shows. A chosen value matching nothing stays listed, with 0.
   */
  function projectFacets(scope: ProjectScope = 'public', query = '', rawFilters: z.input<typeof projectFilters> = {}): ProjectFacets {
    if (scope !== 'public' && scope !== 'internal') throw new CacheInputError([`scope: must be public or internal`]);
    const filters = base.parseInput(projectFilters, rawFilters);
    const narrowed = query.trim() !== '' || Object.values(filters).some((v) => v !== undefined);
    const whole = memoized(`facets:${scope}`, () => computeFacets(scope));
    if (!narrowed) return whole;
    type Key = keyof typeof filters;
    const under = (except: Key) => allOf(projectWhere(scope, query, { ...filters, [except]: undefined }).where);
    const labelled = (values: FacetValue[], all: FacetValue[], chosen: string | undefined) => {
      const labels = new Map(all.map((v) => [v.value, v.label]));
      const out = values.map((v) => ({ ...v, label: labels.get(v.value) ?? v.label }));
      if (chosen && !out.some((v) => v.value === chosen)) out.push({ value: chosen, label: labels.get(chosen) ?? chosen, count: 0 });
      return out;
    };
    const facet = (key: Key, column: FacetColumn, all: FacetValue[]) => {
      const c = sql.raw(`p.${column}`);
      const values = db.all(
        sql<FacetValue>`SELECT ${c} AS value, ${c} AS label, count(*) AS count FROM projects p WHERE ${under(key)} AND ${c} IS NOT NULL
           GROUP BY ${c} ORDER BY count DESC, value`,
      );
      return labelled(values, all, key === 'countryCode' ? filters.countryCode?.toUpperCase() : filters[key]);
    };
    const vintages = db.all(
      sql<FacetValue>`SELECT v.vintage AS value, v.vintage AS label, count(*) AS count FROM project_vintages v
         JOIN projects p ON p.id = v.project_id WHERE ${under('vintage')} GROUP BY v.vintage ORDER BY v.vintage DESC`,
    );
    return {
      statuses: facet('status', 'status', whole.statuses),
      countries: facet('countryCode', 'country_code', whole.countries),
      sectors: facet('sectorId', 'sector_id', whole.sectors),
      methodologies: facet('methodologyId', 'methodology_id', whole.methodologies),
      types: facet('typeId', 'type_id', whole.types),
      vintages: labelled(vintages, whole.vintages, filters.vintage),
    };
  }

  function computeFacets(scope: ProjectScope): ProjectFacets {
    // Counted on the (scope, value) index alone; the label is read from one row of each group
    // (rows with the same id carry the same title), not from every row.
    const facet = (column: FacetColumn, labelColumn: string) => {
      const [value, label] = [sql.raw(column), sql.raw(labelColumn)];
      return db.all(
        sql<FacetValue>`SELECT g.value, coalesce((SELECT ${label} FROM projects l WHERE l.scope = ${scope} AND l.${value} = g.value LIMIT 1), g.value) AS label, g.count
           FROM (SELECT ${value} AS value, count(*) AS count FROM projects WHERE scope = ${scope} AND ${value} IS NOT NULL GROUP BY ${value}) g
           ORDER BY g.count DESC, label`,
      );
    };
    return {
      statuses: facet('status', 'status'),
      countries: facet('country_code', 'l.country_name'),
      sectors: facet('sector_id', 'l.sector_title'),
      methodologies: facet('methodology_id', 'l.methodology_title'),
      types: facet('type_id', 'l.type_title'),
      vintages: db.all(
        sql<FacetValue>`SELECT v.vintage AS value, v.vintage AS label, count(*) AS count FROM project_vintages v
           JOIN projects p ON p.scope = ${scope} AND p.id = v.project_id GROUP BY v.vintage ORDER BY v.vintage DESC`,
      ),
    };
  }

  return { projectFacets };
}

export function createProjectQueries(base: QueryBase) {
  const { db, memoized } = base;

  function searchProjects(rawInput: ProjectSearchInput): {
    total: number;
    totalIsLowerBound?: boolean;
    rows: ProjectRow[];
    asOf: string | null;
  } {
    const input = base.parseInput(projectSearchInput, rawInput);
    const { filters, where, fts, text } = projectWhere(input.scope, input.query, input.filters);
    const whereSql = allOf(where);
    const relevance = input.sort.field === 'relevance' && text.kind === 'match';
    // Without filters, the scope's FTS table alone holds the count.
    const counted =
      text.kind === 'match' && filters.length === 0
        ? { total: db.first(sql<{ n: number }>`SELECT count(*) AS n FROM ${fts} WHERE ${fts} MATCH ${text.match}`)!.n }
        : base.boundedCount(sql`projects p WHERE ${whereSql}`);
    const isPublic = input.scope === 'public' ? sql`1` : sql`EXISTS (SELECT 1 FROM projects q WHERE q.scope = 'public' AND q.id = p.id)`;
    const columns = sql`p.id, p.num, p.full_name, p.short_description, p.status, p.country_code, p.sector_title, p.methodology_title,
                p.type_title, p.proponents, p.start_date, ${isPublic} AS is_public`;
    const page = sql`LIMIT ${input.limit} OFFSET ${input.offset}`;
    let records: Listed[];
    if (relevance) {
      // bm25: lower is better; name and number weigh most. Ranked inside FTS5; only the page's
      // rows are read from projects (filters, when given, are checked on the ranked matches).
      // Equal scores keep cache order (rowid): ordering them by number would read every match.
      const ranked = sql`SELECT f.rowid AS rowid, bm25(${fts}, 10.0, 8.0, 1.0, 2.0, 2.0, 3.0) AS score FROM ${fts} f WHERE ${fts} MATCH ${text.match}`;
      const filterSql = filters.length > 0 ? sql`AND ${allOf(filters)}` : sql``;
      records = db.all(
        sql<Listed>`SELECT ${columns} FROM (${ranked} ORDER BY score, f.rowid ${filters.length > 0 ? sql`` : page}) m
           JOIN projects p ON p.rowid = m.rowid WHERE p.scope = ${input.scope} ${filterSql}
           ORDER BY m.score, m.rowid ${filters.length > 0 ? page : sql``}`,
      );
    } else {
      const sort = PROJECT_SORTS[input.sort.field === 'relevance' ? 'num' : input.sort.field];
      const order = sql.raw(orderBy(sort.columns, input.sort.direction));
      // Many matches: walk the sort index and stop after the page (SQLite would otherwise read and
      // sort every match). The page's rowids come from the index; only those rows are read whole,
      // so a deep offset skips index entries, not wide rows.
      const dense = where.length > 1 && walkSortIndex(counted.total, countProjects(input.scope), input.offset, input.limit);
      const indexed = dense ? sql.raw(`INDEXED BY ${sort.index}`) : sql``;
      records = db.all(
        sql<Listed>`SELECT ${columns} FROM projects p WHERE p.rowid IN (
             SELECT p.rowid FROM projects p ${indexed} WHERE ${whereSql} ORDER BY ${order} ${page}
           ) ORDER BY ${order}`,
      );
    }
    return { ...counted, rows: records.map(toProjectRow), asOf: base.asOf(input.scope === 'public' ? 'projects' : 'internalProjects') };
  }

  function getProject(
    id: string,
  ): { project: InternalProject | Project; credits: ProjectCreditsAnswer | null; asOf: string | null } | null {
    const detail = db.first(db.q.selectFrom('project_details').select('json').where('id', '=', id))?.json;
    const listed = detail
      ? undefined
      : db.first(
          sql<
            Pick<CacheTables['projects'], 'json' | 'scope'>
          >`SELECT json, scope FROM projects WHERE id = ${id} ORDER BY scope = 'internal' DESC LIMIT 1`,
        );
    if (!detail && !listed) return null;
    const credits = db.first(db.q.selectFrom('project_credits').select('json').where('project_id', '=', id))?.json;
    const resource: SyncResource = detail ? 'projectDetails' : listed!.scope === 'public' ? 'projects' : 'internalProjects';
    return {
      project: JSON.parse(detail ?? listed!.json) as InternalProject | Project,
      credits: credits ? (JSON.parse(credits) as ProjectCreditsAnswer) : null,
      asOf: base.asOf(resource),
    };
  }

  // Row counts (a full index scan each) are kept until the cache changes, like facets.
  function countProjects(scope: ProjectScope): number {
    return memoized(
      `count:projects:${scope}`,
      () =>
        db.first(
          db.q
            .selectFrom('projects')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('scope', '=', scope),
        )!.n,
    );
  }

  /** Every project of a scope with its list row hash. */
  function projectHashes(scope: ProjectScope): Map<string, string> {
    const rows = db.all(db.q.selectFrom('projects').select(['id', 'row_hash']).where('scope', '=', scope));
    return new Map(rows.map((r) => [r.id, r.row_hash]));
  }

  /** Organization ids the cache knows as proponents of projects. */
  function proponentIds(): string[] {
    // Internal projects, when the cache holds them, are every project (the public ones included):
    // one scope is read, not both. Its rows' id lists come from their index alone (migration
    // 0010), each distinct list once: 4-6 ms at --scale 100, against 0.1 s from each row's JSON.
    const rows = db.all(
      sql<{ id: string }>`SELECT DISTINCT o.value AS id FROM (SELECT DISTINCT proponent_ids FROM projects
           WHERE scope = (SELECT CASE WHEN EXISTS (SELECT 1 FROM projects WHERE scope = 'internal') THEN 'internal' ELSE 'public' END)) p,
         json_each(p.proponent_ids) o`,
    );
    return rows.map((r) => r.id);
  }

  /**
   * The id of the project numbered `num` (the "Project 1006" people see and type into an address:
   * the desk's page addresses use whichever the user has, renderer lib/route.ts), if the cache holds one.
   */
  function projectIdOfNum(num: string): string | undefined {
    return db.prepared(idOfNum).first({ num })?.id;
  }

  return { searchProjects, ...createProjectFacets(base), getProject, projectHashes, proponentIds, projectIdOfNum };
}
