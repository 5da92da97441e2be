// Which projects the public may see: a public status AND an owning organization that passed
// business verification (section 4.1: "only public projects with a verified organization").
import { PUBLIC_PROJECT_STATUSES } from '@shared/registry/vocabulary';

// The statuses are the registry's own constants, never input, so they are inlined as literals.
const statusList = PUBLIC_PROJECT_STATUSES.map((s) => `'${s.replace(/'/g, "''")}'`).join(', ');

/**
 * Condition over `projects p`. The unary `+` keeps SQLite from choosing the status index: lists
 * walk the projects_by_number index in list order and stop after the page, instead of sorting
 * every public project for each request. The organization is checked by primary key.
 */
export const PUBLIC_PROJECT_CONDITION = `+p.status IN (${statusList})
  AND EXISTS (SELECT 1 FROM organizations vo WHERE vo.id = p.organization_id AND vo.is_verified = 1)`;

/**
 * Counts public projects from the verified organizations outwards (CROSS JOIN fixes that loop
 * order even without ANALYZE statistics), each a covering seek in projects_by_organization_status.
 */
export const COUNT_PUBLIC_PROJECTS = `SELECT COUNT(*) AS n FROM organizations o CROSS JOIN projects p
  WHERE p.organization_id = o.id AND o.is_verified = 1 AND p.status IN (${statusList})`;

export type ProjectVisibility = 'public' | 'all';

export function visibilityCondition(visibility: ProjectVisibility): string {
  return visibility === 'public' ? PUBLIC_PROJECT_CONDITION : '1 = 1';
}
