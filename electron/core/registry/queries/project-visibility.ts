// Which projects the public may see: a public status AND an owning organization that passed
// business verification (section 4.1: "only public projects with a verified organization").
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { PUBLIC_PROJECT_STATUSES } from '@shared/registry/vocabulary';

// The statuses are the registry's own constants, never input, so they are inlined as literals.
const statusList = sql.join(PUBLIC_PROJECT_STATUSES.map((status) => sql.lit(status)));

/**
 * Condition over `projects p`. The unary `+` keeps SQLite from choosing the status index: lists
 * walk the projects_by_number index in list order and stop after the page, instead of sorting
 * every public project for each request. The organization is checked by primary key.
 */
export const PUBLIC_PROJECT_CONDITION: RawBuilder<SqlBool> = sql<SqlBool>`+p.status IN (${statusList})
  AND EXISTS (SELECT 1 FROM organizations vo WHERE vo.id = p.organization_id AND vo.is_verified = 1)`;

/**
 * Counts public projects from the verified organizations outwards (CROSS JOIN, which kysely cannot
 * write, fixes that loop order even without ANALYZE statistics), each a covering seek in
 * projects_by_organization_status.
 */
export const COUNT_PUBLIC_PROJECTS = sql<{ n: number }>`SELECT COUNT(*) AS n FROM organizations o CROSS JOIN projects p
  WHERE p.organization_id = o.id AND o.is_verified = 1 AND p.status IN (${statusList})`;

export type ProjectVisibility = 'public' | 'all';

const EVERY_PROJECT = sql<SqlBool>`1 = 1`;

/** The condition over `projects p` for a visibility. */
export function visibilityCondition(visibility: ProjectVisibility): RawBuilder<SqlBool> {
  return visibility === 'public' ? PUBLIC_PROJECT_CONDITION : EVERY_PROJECT;
}
