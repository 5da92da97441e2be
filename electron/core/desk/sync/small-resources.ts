// Resources read whole each run: the three registry inventories, the warehouses of installed
// organizations, and organization records. Each is written in one transaction.
import type { Organization, Reservation } from '../../../../shared/registry/resources';
import { RegistryClientError } from '../../client/errors';
import { forEachLimited } from './concurrency';
import type { InstallationRef, StepContext, StepOutcome } from './context';

export async function syncInventories(ctx: StepContext): Promise<StepOutcome> {
  ctx.progress('inventories', 0, 3);
  const buffer = await ctx.client.call('getBufferInventory');
  ctx.progress('inventories', 1, 3);
  const adjustment = await ctx.client.call('getAdjustmentInventory');
  ctx.progress('inventories', 2, 3);
  const organization = await ctx.client.call('getOrganizationInventory');
  ctx.progress('inventories', 3, 3);
  ctx.cache.write.replaceInventories({ buffer, adjustment, organization });
  return { status: 'ok', written: 3, deleted: 0 };
}

const warehouseLevel = (i: InstallationRef) => i.permissions.organization_warehouse;
export const canReadWarehouse = (i: InstallationRef) => warehouseLevel(i) === 'VIEW' || warehouseLevel(i) === 'WRITE';

export async function syncWarehouses(ctx: StepContext): Promise<StepOutcome> {
  const targets = ctx.installations.filter(canReadWarehouse);
  if (targets.length === 0) {
    ctx.cache.write.replaceWarehouses([]);
    return { status: 'skipped', reason: 'no installation with organization_warehouse' };
  }
  const refused: string[] = [];
  const warehouses: Parameters<typeof ctx.cache.write.replaceWarehouses>[0][number][] = [];
  let done = 0;
  ctx.progress('warehouses', 0, targets.length);
  for (const installation of targets) {
    const call = { params: { id: installation.organizationId }, installationId: installation.id };
    try {
      const inventory = await ctx.client.call('getWarehouseInventory', call);
      const reservations: Reservation[] = [];
      for (let page = 0; ; page++) {
        const answer = await ctx.client.call('listReservations', { ...call, query: { page, limit: ctx.tuning.pageSize } });
        reservations.push(...answer.reservations);
        if (answer.reservations.length < ctx.tuning.pageSize) break;
      }
      warehouses.push({
        organizationId: installation.organizationId,
        organizationName: installation.organizationName,
        canWrite: warehouseLevel(installation) === 'WRITE',
        credits: inventory.credits,
        reservations,
      });
    } catch (error) {
      // An installation suspended or stripped of the permission: its warehouse is no longer ours to
      // show; the others still sync.
      if (error instanceof RegistryClientError && error.kind === 'http' && (error.status === 401 || error.status === 403)) {
        refused.push(`${installation.organizationName}: ${error.message}`);
      } else throw error;
    }
    ctx.progress('warehouses', ++done, targets.length);
  }
  ctx.cache.write.replaceWarehouses(warehouses);
  return { status: 'ok', written: warehouses.length, deleted: 0, ...(refused.length > 0 ? { note: `refused: ${refused.join('; ')}` } : {}) };
}

/**
 * Installed organizations (with their installation's token, so a non-public one is visible) and
 * every proponent seen. Like per-project answers, an organization is fetched again only when it is
 * new to the cache, older than perProjectMaxAgeMs, named by a project row that changed since
 * (needs_refresh), or installed/uninstalled since; a proponent the app may not see (404) is
 * remembered and asked again under the same rule.
 */
export async function syncOrganizations(ctx: StepContext): Promise<StepOutcome> {
  const installedBy = new Map(ctx.installations.map((i) => [i.organizationId, i.id]));
  const ids = [...new Set([...installedBy.keys(), ...ctx.cache.proponentIds()])];
  const { cached, unseen } = ctx.cache.organizationFreshness();
  const now = ctx.clock.now();
  const maxAge = ctx.tuning.perProjectMaxAgeMs;
  const todo = ids.filter((id) => {
    const have = cached.get(id);
    if (have) return have.needsRefresh || now - have.fetchedAt >= maxAge || have.installed !== installedBy.has(id);
    const checkedAt = unseen.get(id);
    // An installation may show what the app alone could not.
    return checkedAt === undefined || now - checkedAt >= maxAge || installedBy.has(id);
  });
  const fetched: { organization: Organization; installed: boolean }[] = [];
  const notVisible: string[] = [];
  let done = 0;
  ctx.progress('organizations', 0, todo.length);
  await forEachLimited(todo, ctx.tuning.concurrency, async (id) => {
    const installationId = installedBy.get(id);
    try {
      const { organization } = await ctx.client.call('getOrganizationV1', { params: { id }, ...(installationId ? { installationId } : {}) });
      fetched.push({ organization, installed: installationId !== undefined });
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
