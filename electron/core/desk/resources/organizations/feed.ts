// The organizations' part of the changes feed (resources/feed-part.ts): the organizations the feed
// sends (those it removes dropped) are put at the end of the pass, after every kind's rows; their
// records that need installation tokens are read by the organizations' step after it.
import type { Organization } from '@shared/registry/resources';
import type { FeedPass, KindFeed } from '@desk/resources/feed-part';
import type { PreparedItem } from '@desk/sync/worker/page-prep';
import type { OrganizationsContext } from './sync';

type Cache = OrganizationsContext['cache'];

function collected() {
  const organizations = new Map<string, Organization>();
  return {
    take(item: PreparedItem): boolean {
      if (item.type !== 'organization') return false;
      organizations.set(item.organization.id, item.organization);
      return true;
    },
    dropped: (_type: string, id: string) => void organizations.delete(id),
    changed: () => organizations.size > 0,
    put({ ctx, removed }: FeedPass<Cache>): void {
      const installed = new Set(ctx.installations.map((i) => i.organizationId));
      ctx.cache.write.putFeedOrganizations([...organizations.values()], installed, removed('organization'));
    },
  };
}

export const feed: KindFeed<Cache> = {
  items: ['organization'],
  resources: [],
  staging: [],
  bulkIndexed: [],
  analyzed: [],
  idOf: (item) => (item.type === 'organization' ? item.organization.id : undefined),
  staged: (pass) => {
    const organizations = collected();
    return { ...organizations, afterRemovals: () => (organizations.put(pass), {}) };
  },
  load: () => {
    const organizations = collected();
    return { ...organizations, finish: () => ({}), afterFinish: (pass) => organizations.put(pass) };
  },
};
