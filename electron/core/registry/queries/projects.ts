// Read queries for projects (4.1): pages of public or all projects, one project by id, by credit,
// and the internal view with its events.
import type { InternalProject, Project, ProjectEvent } from '@shared/registry/resources';
import { parseCreditId } from '@shared/registry/identifiers';
import { iso } from '@platform/clock';
import type { RegistryContext } from '../context';
import { PROJECT_COLUMNS, PROJECT_LOOKUPS, presentProjects, type ProjectRow } from './project-presenter';
import { COUNT_PUBLIC_PROJECTS, visibilityCondition, type ProjectVisibility } from './project-visibility';

/**
 * Lists are ordered by project number (numerically), then id: the order people read a registry in,
 * stable across pages, and served by the projects_by_number index of migration 0002.
 */
const LIST_ORDER = 'CAST(p.num AS INTEGER), p.id';

export function countProjects(ctx: RegistryContext, visibility: ProjectVisibility): number {
  const sql = visibility === 'public' ? COUNT_PUBLIC_PROJECTS : 'SELECT COUNT(*) AS n FROM projects';
  const row = ctx.db.prepare(sql).get() as { n: number };
  return row.n;
}

export function listProjects(ctx: RegistryContext, options: { visibility: ProjectVisibility; limit: number; offset: number }): Project[] {
  // The page's ids are chosen on the narrow index first; only those rows are then joined and read.
  const rows = ctx.db
    .prepare(
      `WITH page AS (
         SELECT p.id, CAST(p.num AS INTEGER) AS n FROM projects p
         WHERE ${visibilityCondition(options.visibility)}
         ORDER BY ${LIST_ORDER} LIMIT ? OFFSET ?
       )
       SELECT ${PROJECT_COLUMNS} FROM page JOIN projects p ON p.id = page.id ${PROJECT_LOOKUPS}
       ORDER BY page.n, page.id`,
    )
    .all(options.limit, options.offset) as ProjectRow[];
  return presentProjects(ctx, rows, options.visibility === 'public' ? 'public' : 'all');
}

export function projectById(ctx: RegistryContext, id: string, visibility: ProjectVisibility): Project | undefined {
  const row = ctx.db
    .prepare(`SELECT ${PROJECT_COLUMNS} FROM projects p ${PROJECT_LOOKUPS} WHERE p.id = ? AND ${visibilityCondition(visibility)}`)
    .get(id) as ProjectRow | undefined;
  return row ? presentProjects(ctx, [row], visibility === 'public' ? 'public' : 'all')[0] : undefined;
}

/**
 * The project that issued a credit, found by credit id or serialization. When both are given the
 * credit must match both (a client sending two keys that disagree gets no project rather than a
 * guess). Credit ids are matched in their canonical form (lowercase contract address).
 */
export function projectOfCredit(
  ctx: RegistryContext,
  key: { creditId?: string | undefined; serialization?: string | undefined },
  visibility: ProjectVisibility,
): Project | undefined {
  const creditId = key.creditId === undefined ? undefined : (canonicalCreditId(key.creditId) ?? key.creditId);
  // Look up by the unique key that was given (both are indexed), then require the other to agree.
  const [column, value] = creditId !== undefined ? ['c.id', creditId] : ['c.serialization', key.serialization];
  if (value === undefined) return undefined;
  const row = ctx.db
    .prepare(
      `SELECT ${PROJECT_COLUMNS}, c.serialization AS credit_serialization FROM credits c JOIN projects p ON p.id = c.project_id ${PROJECT_LOOKUPS}
       WHERE ${column} = ? AND ${visibilityCondition(visibility)}`,
    )
    .get(value) as (ProjectRow & { credit_serialization: string }) | undefined;
  if (!row || (key.serialization !== undefined && row.credit_serialization !== key.serialization)) return undefined;
  return presentProjects(ctx, [row], visibility === 'public' ? 'public' : 'all')[0];
}

function canonicalCreditId(id: string): string | undefined {
  const parsed = parseCreditId(id);
  return parsed ? `${parsed.type}-${BigInt(parsed.tokenId).toString()}-${parsed.tokenAddress}` : undefined;
}

interface ProjectEventRow {
  id: string;
  type: string;
  created_at: number;
  project_status: string;
  previous_project_status: string;
}

/** Any project, as examiners see it, with its events oldest first (ties in insertion order). */
export function internalProjectById(ctx: RegistryContext, id: string): InternalProject | undefined {
  const project = projectById(ctx, id, 'all');
  if (!project) return undefined;
  const events = ctx.db
    .prepare(
      `SELECT id, type, created_at, project_status, previous_project_status FROM project_events
       WHERE project_id = ? ORDER BY created_at, rowid`,
    )
    .all(id) as ProjectEventRow[];
  return {
    ...project,
    events: events.map((e): ProjectEvent => ({
      id: e.id,
      type: e.type,
      createdAt: iso(e.created_at),
      projectStatus: e.project_status,
      previousProjectStatus: e.previous_project_status,
    })),
  };
}

/** Whether a project exists and the public may see it (used by the credit endpoints). */
export function projectVisibleAs(ctx: RegistryContext, id: string, visibility: ProjectVisibility): boolean {
  return ctx.db.prepare(`SELECT 1 FROM projects p WHERE p.id = ? AND ${visibilityCondition(visibility)}`).get(id) !== undefined;
}
