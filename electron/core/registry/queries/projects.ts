// Read queries for projects (4.1): pages of public or all projects, one project by id, by credit,
// and the internal view with its events.
import type { InternalProject, Project, ProjectEvent } from '@shared/registry/resources';
import { parseCreditId } from '@shared/registry/identifiers';
import { iso } from '@platform/clock';
import { sql, type Kysely } from 'kysely';
import type { RegistryContext } from '../context';
import type { RegistryTables } from '../schema';
import { PROJECT_FIELDS, presentProjects, selectProjects } from './project-presenter';
import { COUNT_PUBLIC_PROJECTS, visibilityCondition, type ProjectVisibility } from './project-visibility';

type Q = Kysely<RegistryTables>;

/**
 * Lists are ordered by project number (numerically), then id: the order people read a registry in,
 * stable across pages, and served by the projects_by_number index of migration 0002 (on the same
 * expression, so written as it is there).
 */
const NUMBER = sql<number>`CAST(p.num AS INTEGER)`;

const projectCount = (_: Record<string, never>, q: Q) => q.selectFrom('projects').select((eb) => eb.fn.countAll<number>().as('n'));

export function countProjects(ctx: RegistryContext, visibility: ProjectVisibility): number {
  const row = visibility === 'public' ? ctx.db.first(COUNT_PUBLIC_PROJECTS) : ctx.db.prepared(projectCount).first({});
  return row?.n ?? 0;
}

export function listProjects(ctx: RegistryContext, options: { visibility: ProjectVisibility; limit: number; offset: number }): Project[] {
  // The page's ids are chosen on the narrow index first; only those rows are then joined and read.
  const { db } = ctx;
  const rows = db.all(
    db.q
      .with('page', (q) =>
        q
          .selectFrom('projects as p')
          .select(['p.id', NUMBER.as('n')])
          .where(visibilityCondition(options.visibility))
          .orderBy(NUMBER)
          .orderBy('p.id')
          .limit(options.limit)
          .offset(options.offset),
      )
      .selectFrom('page')
      .innerJoin('projects as p', 'p.id', 'page.id')
      .innerJoin('sectors as s', 's.id', 'p.sector_id')
      .innerJoin('methodologies as m', 'm.id', 'p.methodology_id')
      .innerJoin('project_types as t', 't.id', 'p.type_id')
      .select(PROJECT_FIELDS)
      .orderBy('page.n')
      .orderBy('page.id'),
  );
  return presentProjects(ctx, rows, options.visibility === 'public' ? 'public' : 'all');
}

export function projectById(ctx: RegistryContext, id: string, visibility: ProjectVisibility): Project | undefined {
  const { db } = ctx;
  const row = db.first(selectProjects(db.q).where('p.id', '=', id).where(visibilityCondition(visibility)));
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
  const [column, value] = creditId !== undefined ? (['c.id', creditId] as const) : (['c.serialization', key.serialization] as const);
  if (value === undefined) return undefined;
  const { db } = ctx;
  const row = db.first(
    selectProjects(db.q)
      .innerJoin('credits as c', 'c.project_id', 'p.id')
      .select('c.serialization as credit_serialization')
      .where(column, '=', value)
      .where(visibilityCondition(visibility)),
  );
  if (!row || (key.serialization !== undefined && row.credit_serialization !== key.serialization)) return undefined;
  return presentProjects(ctx, [row], visibility === 'public' ? 'public' : 'all')[0];
}

function canonicalCreditId(id: string): string | undefined {
  const parsed = parseCreditId(id);
  return parsed ? `${parsed.type}-${BigInt(parsed.tokenId).toString()}-${parsed.tokenAddress}` : undefined;
}

/** A project's events oldest first, ties in insertion order. */
const projectEvents = (v: { id: string }, q: Q) =>
  q
    .selectFrom('project_events')
    .select(['id', 'type', 'created_at', 'project_status', 'previous_project_status'])
    .where('project_id', '=', v.id)
    .orderBy('created_at')
    .orderBy(sql`rowid`);
const visibleProject = (q: Q, id: string, visibility: ProjectVisibility) =>
  q.selectFrom('projects as p').select(sql.lit(1).as('one')).where('p.id', '=', id).where(visibilityCondition(visibility));

/** Any project, as examiners see it, with its events oldest first (ties in insertion order). */
export function internalProjectById(ctx: RegistryContext, id: string): InternalProject | undefined {
  const project = projectById(ctx, id, 'all');
  if (!project) return undefined;
  const events = ctx.db.prepared(projectEvents).all({ id });
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
  return ctx.db.first(visibleProject(ctx.db.q, id, visibility)) !== undefined;
}
