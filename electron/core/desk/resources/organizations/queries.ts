// Reads of the cached organizations: the list the desk shows (installed first), and what the
// organizations step needs to decide which records to read again.
import { sql } from 'kysely';
import type { Organization } from '@shared/registry/resources';
import type { QueryBase } from '@desk/cache/queries';

export function createOrganizationQueries(base: QueryBase) {
  const { db } = base;

  function listOrganizations(): { organizations: (Organization & { installed: boolean })[]; asOf: string | null } {
    const rows = db.all(
      db.q
        .selectFrom('organizations')
        .select(['json', 'installed'])
        .orderBy('installed', 'desc')
        .orderBy(sql`full_name COLLATE NOCASE`)
        .orderBy('id'),
    );
    return {
      organizations: rows.map((r) => ({ ...(JSON.parse(r.json) as Organization), installed: r.installed === 1 })),
      asOf: base.asOf('organizations'),
    };
  }

  /** What the cache knows of each organization it holds or was refused, for staleness checks. */
  function organizationFreshness(): {
    cached: Map<string, { fetchedAt: number; installed: boolean; needsRefresh: boolean }>;
    unseen: Map<string, number>;
  } {
    const rows = db.all(db.q.selectFrom('organizations').select(['id', 'fetched_at', 'installed', 'needs_refresh']));
    const unseen = db.all(db.q.selectFrom('organizations_unseen').select(['id', 'checked_at']));
    return {
      cached: new Map(
        rows.map((r) => [r.id, { fetchedAt: r.fetched_at, installed: r.installed === 1, needsRefresh: r.needs_refresh === 1 }]),
      ),
      unseen: new Map(unseen.map((u) => [u.id, u.checked_at])),
    };
  }

  return { listOrganizations, organizationFreshness };
}
