// The inventories' part of the changes feed (resources/feed-part.ts): each account's answer, read
// from its page's bytes, staged per account and swapped in together once the removals are applied,
// or loaded straight into an empty cache.
import { INVENTORY_ACCOUNTS, type InventoryAccount } from '@shared/desk/api';
import type { KindFeed } from '@desk/resources/feed-part';
import { FEED_ENDPOINT } from '@desk/sync/feed-pages';
import type { ChangedInventory } from './writers';
import { stageInventoryAnswer, type InventoriesContext } from './sync';
import { inventoryItem } from './feed-item';
import { loadInventories } from './feed-load';

export const feed: KindFeed<InventoriesContext['cache'], ReturnType<typeof loadInventories>> = {
  items: ['inventory'],
  resources: [{ resource: 'inventories' }],
  staging: [],
  bulkIndexed: ['inventory_credits'],
  analyzed: ['inventory_credits'],
  staged: ({ ctx }) => {
    ctx.cache.write.beginInventoryStaging();
    const staged = new Map<InventoryAccount, ChangedInventory | null>();
    return {
      take(item, page) {
        if (item.type !== 'inventory') return false;
        const read = inventoryItem(page.bytes!, item.span, item.index);
        if (!read) return false;
        if (INVENTORY_ACCOUNTS.includes(read.account))
          staged.set(read.account, stageInventoryAnswer(ctx, read.account, read.inventory.bytes, FEED_ENDPOINT));
        return true;
      },
      changed: () => staged.size > 0,
      abandon: () => ctx.cache.write.discardInventoryStaging(),
      afterRemovals() {
        const changed = [...staged.values()].filter((c): c is ChangedInventory => c !== null);
        return { inventories: { status: 'ok', ...ctx.cache.write.commitInventories(changed) } };
      },
    };
  },
  load: loadInventories,
};
