// The desk API's projects.*, inventories.* and organizations.* methods (shared/desk/api.ts).
import { DeskFailure } from '@desk/errors';
import type { MethodGroup, ServiceContext } from './context';

/** projects.*, inventories.* and organizations.*: reads of the active connection's synced cache. */
export function syncedReadMethods(ctx: ServiceContext): MethodGroup<'projects' | 'inventories' | 'organizations'> {
  const { cache, fresh } = ctx;
  return {
    'projects.search': (input) => fresh(cache().searchProjects(input)),
    'projects.facets': (input) => cache().projectFacets(input.scope, input.query, input.filters),
    'projects.get': (input) => {
      // By id, or by the number an address names (/projects/1006).
      const byNum = () => cache().projectIdOfNum(input.id);
      const found = cache().getProject(input.id) ?? cache().getProject(byNum() ?? '');
      if (!found) throw new DeskFailure('not_found', `Project ${input.id} is not in the desk's data (it may not be synced yet)`);
      return fresh(found);
    },
    'inventories.get': (input) => {
      const found = cache().getInventory(input.account);
      if (!found) throw new DeskFailure('not_found', `The ${input.account} account has not been synced yet`);
      return fresh(found);
    },
    'inventories.credits': (input) => fresh(cache().searchInventoryCredits(input)),
    'inventories.facets': (input) => cache().inventoryFacets(input.account, input.query, input.filters),
    'organizations.list': () => fresh(cache().listOrganizations()),
  };
}
