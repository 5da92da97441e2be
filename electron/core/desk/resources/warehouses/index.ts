// The installations' warehouses as the sync and the cache take them (resources/list.ts).
import { defineKind, type StepRun } from '@desk/resources/kind';
import { syncWarehouses, type WarehousesContext } from './sync';
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
    },
  ],
  writers: createWarehouseWriters,
  queries: createWarehouseQueries,
});
