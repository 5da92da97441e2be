// Organization records: installed organizations' and every proponent's, each read again only when
// it may have changed (see syncOrganizations), written in one transaction.
import type { Organization } from '@shared/registry/resources';
import { RegistryClientError } from '@desk/client/errors';
import { forEachLimited } from '@desk/sync/concurrency';
import type { StepContext, StepOutcome } from '@desk/sync/context';
import type { createOrganizationWriters } from './writers';
import type { createOrganizationQueries } from './queries';
import type { createProjectQueries } from '@desk/resources/projects/queries';
import type { CacheWith } from '@desk/cache/core';

/** The cache as the organizations' step (it reads the projects' proponents) use it. */
export type OrganizationsContext = StepContext<
  CacheWith<
    ReturnType<typeof createOrganizationWriters>,
    ReturnType<typeof createOrganizationQueries> & ReturnType<typeof createProjectQueries>
  >
>;

type PlanOptions = { feed: boolean; proponents?: () => string[] };

/** The organizations to keep (`ids`), those to fetch, and each one's call (with its installation's token when installed). */
function planOrganizations(ctx: OrganizationsContext, options: PlanOptions) {
  const installedBy = new Map(ctx.installations.map((i) => [i.organizationId, i.id]));
  const ids = [...new Set([...installedBy.keys(), ...(options.proponents ?? (() => ctx.cache.proponentIds()))()])];
  const { cached, unseen } = ctx.cache.organizationFreshness();
  const now = ctx.clock.now();
  const maxAge = ctx.tuning.perProjectMaxAgeMs;
  const todo = ids.filter((id) => {
    const have = cached.get(id);
    // With the changes feed a cached record is kept current by the feeds (the app's, and the
    // installations' for installed ones): only one that is no longer installed is asked again,
    // with the app's token, to see whether the app alone may still see it.
    if (have && options.feed) return have.installed && !installedBy.has(id);
    if (have) return have.needsRefresh || now - have.fetchedAt >= maxAge || have.installed !== installedBy.has(id);
    const checkedAt = unseen.get(id);
    // An installation may show what the app alone could not.
    return checkedAt === undefined || now - checkedAt >= maxAge || installedBy.has(id);
  });
  const call = (id: string) => {
    const installationId = installedBy.get(id);
    return { params: { id }, ...(installationId ? { installationId } : {}) };
  };
  return { ids, todo, call };
}

/**
 * The records the step will fetch, asked ahead (a SeedPrefetch: once the project lists are in, which
 * name the proponents). Through the seed interface only: with the feed, the warehouses' step writes
 * installed organizations' records first, and few are fetched.
 */
export function askOrganizationsAhead(ctx: OrganizationsContext, options: PlanOptions): void {
  if (options.feed) return;
  const { todo, call } = planOrganizations(ctx, options);
  for (const id of todo) void ctx.client.call('getOrganizationV1', call(id));
}

/**
 * Installed organizations (with their installation's token, so a non-public one is visible) and
 * every proponent seen (`feed`: the changes feed keeps cached records current, see below). Like per-project answers, an organization is fetched again only when it is
 * new to the cache, older than perProjectMaxAgeMs, named by a project row that changed since
 * (needs_refresh), or installed/uninstalled since; a proponent the app may not see (404) is
 * remembered and asked again under the same rule.
 */
export async function syncOrganizations(ctx: OrganizationsContext, options: PlanOptions = { feed: false }): Promise<StepOutcome> {
  const { ids, todo, call } = planOrganizations(ctx, options);
  const fetched: { organization: Organization; installed: boolean }[] = [];
  const notVisible: string[] = [];
  let done = 0;
  ctx.progress('organizations', 0, todo.length);
  await forEachLimited(todo, ctx.tuning.concurrency, async (id) => {
    const input = call(id);
    try {
      const { organization } = await ctx.client.call('getOrganizationV1', input);
      fetched.push({ organization, installed: input.installationId !== undefined });
    } catch (error) {
      // Not visible to this app (non-public) or gone: simply not listed.
      if (!(error instanceof RegistryClientError && error.kind === 'http' && error.status === 404)) throw error;
      notVisible.push(id);
    }
    ctx.progress('organizations', ++done, todo.length);
  });
  ctx.cache.write.updateOrganizations({ fetched, unseen: notVisible, keepIds: ids });
  return { status: 'ok', written: fetched.length, deleted: 0 };
}
