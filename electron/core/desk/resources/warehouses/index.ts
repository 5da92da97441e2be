// The installations' warehouses as the sync and the cache take them (resources/list.ts).
import { defineKind, type StepRun } from '@desk/resources/kind';
import { askWarehousesAhead, syncWarehouses, type WarehousesContext } from './sync';
import { syncInstallationFeeds } from './installation-feed';
import { createWarehouseWriters } from './writers';
import { createWarehouseQueries } from './queries';

export const kind = defineKind({
  folder: 'warehouses',
  // With the feed, the installations' narrowed feeds bring the warehouses (and installed organizations' records).
  steps: [
    {
      resource: 'warehouses',
      step: (ctx: WarehousesContext, run: StepRun) => (run.feed ? syncInstallationFeeds(ctx) : syncWarehouses(ctx)),
      // Through the seed interface its calls depend on nothing synced before it: asked at the start.
      prefetch: { after: [], ask: (ctx: WarehousesContext, run: StepRun) => void (run.feed || askWarehousesAhead(ctx)) },
    },
  ],
  writers: createWarehouseWriters,
  queries: createWarehouseQueries,
});
