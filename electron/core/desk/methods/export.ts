// The desk API's export.csv method (shared/desk/api.ts).
import { exportCsv } from '@desk/csv-export';
import { auditEntries, type AuditPageRead } from '@desk/audit-entries';
import { warehouseView } from '@desk/warehouse-view';
import type { MethodGroup, ServiceContext } from './context';
import { whenSearchable } from './searchable';

/** export.csv: a CSV of what a screen lists, kept as a file to save. */
export function exportMethods(ctx: ServiceContext): MethodGroup<'export'> {
  const { connections, tracker, clock, backOffice, artifacts } = ctx;
  return {
    'export.csv': async (input) => {
      const runtime = connections.requireActive();
      // Retirements searched by text right after a first sync: once their search entries are there
      // (searchable.ts), every page after can be read.
      if (input.list === 'retirements')
        await whenSearchable(() => runtime.cache.searchRetirements({ ...input.search, offset: 0, limit: 1 }));
      const csv = await exportCsv(
        {
          searchProjects: (search) => runtime.cache.searchProjects(search),
          searchRetirements: (search) => runtime.cache.searchRetirements(search),
          inventoryCredits: (search) => runtime.cache.inventoryCreditsOf(search),
          warehouseCredits: (organizationId) => warehouseView(runtime, tracker, clock, organizationId),
          auditEntries: (filter) =>
            auditEntries(
              async (query) =>
                (await backOffice.read({ endpoint: 'operatorSearchAudit', query })).data as Awaited<ReturnType<AuditPageRead>>,
              filter,
            ),
        },
        input,
        new Date(clock.now()).toISOString().slice(0, 10),
      );
      return artifacts.put('csv', csv.baseName, csv.bytes);
    },
  };
}
