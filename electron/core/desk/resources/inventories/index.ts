// The registry accounts' inventories as the sync and the cache take them (resources/list.ts).
import { feed } from './feed';
import { defineKind } from '@desk/resources/kind';
import { walkSortIndex } from '@desk/cache/queries';
import { askInventoriesAhead, syncInventories, type InventoriesContext } from './sync';
import { createInventoryWriters } from './writers';
import { createInventoryQueries } from './queries';

export const kind = defineKind({
  folder: 'inventories',
  steps: [
    {
      resource: 'inventories',
      step: (ctx: InventoriesContext) => syncInventories(ctx),
      // Read whole every pass: asked at the start.
      prefetch: { after: [], ask: (ctx: InventoriesContext) => askInventoriesAhead(ctx) },
    },
  ],
  // Staged per account, swapped in together.
  writers: (base) => createInventoryWriters(base.db, base.now, () => base.markSuccess('inventories', { full: true })),
  queries: (base) =>
    createInventoryQueries(base.db, {
      parseInput: base.parseInput,
      memoized: base.memoized,
      walkSortIndex,
      lastSuccessAt: () => base.lastSuccessOf('inventories'),
    }),
  feed,
});
