// export.csv: the rows a list shows, with the list's own filters and sort, all of them (the search
// is paged through from offset 0, whatever page the renderer was on), as a CSV file.
import { z } from 'zod';
import {
  csvExportInput,
  type InventoryCreditRow,
  type InventoryCreditSearchInput,
  type ProjectRow,
  type RetirementRow,
} from '@shared/desk/api';
import type { WarehouseInventoryCredit } from '@shared/registry/resources';
import { creditVintage, listWarehouseCredits } from '@shared/desk/warehouse-list';
import type { AuditFilter } from '@shared/desk/audit-filter';
import { toCsv, type CsvColumn } from './csv';

const PAGE = 500; // the search API's largest page

export interface CsvSources {
  searchProjects(input: z.input<(typeof csvExportInput.options)[0]>['search'] & { offset: number; limit: number }): {
    total: number;
    rows: ProjectRow[];
  };
  searchRetirements(input: z.input<(typeof csvExportInput.options)[1]>['search'] & { offset: number; limit: number }): {
    total: number;
    rows: RetirementRow[];
  };
  /** Every credit of an account's search, in its order (a stream: rows are read as they are written). */
  inventoryCredits(search: Omit<InventoryCreditSearchInput, 'offset' | 'limit'>): Iterable<InventoryCreditRow>;
  warehouseCredits(organizationId: string): Promise<{ organizationName: string; credits: WarehouseInventoryCredit[] }>;
  /** Every audit entry the filter selects, newest first (the registry's search, paged through). */
  auditEntries(filter: AuditFilter): Promise<AuditEntryRow[]>;
}

/** An audit entry as the operator interface answers it. */
export interface AuditEntryRow {
  id: string;
  at: string;
  operatorId: string | null;
  actor: string;
  action: string;
  targetIds: string[];
  outcome: string;
  detail: Record<string, unknown>;
}

function* allPages<Row>(fetchPage: (offset: number) => { total: number; rows: Row[] }): Generator<Row> {
  for (let offset = 0; ; offset += PAGE) {
    const page = fetchPage(offset);
    yield* page.rows;
    if (page.rows.length < PAGE || offset + PAGE >= page.total) return;
  }
}

const projectColumns: CsvColumn<ProjectRow>[] = [
  { header: 'Number', value: (r) => r.num },
  { header: 'Name', value: (r) => r.fullName },
  { header: 'Status', value: (r) => r.status },
  { header: 'Country', value: (r) => r.countryCode },
  { header: 'Sector', value: (r) => r.sector },
  { header: 'Methodology', value: (r) => r.methodology },
  { header: 'Type', value: (r) => r.type },
  { header: 'Proponents', value: (r) => r.proponents },
  { header: 'Start date', value: (r) => r.startDate },
  { header: 'Public', value: (r) => (r.isPublic ? 'yes' : 'no') },
  { header: 'Id', value: (r) => r.id },
];

const retirementColumns: CsvColumn<RetirementRow>[] = [
  { header: 'Date', value: (r) => r.createdAt },
  { header: 'Amount (tCO2e)', value: (r) => r.amount },
  { header: 'Beneficiary', value: (r) => r.beneficiary },
  { header: 'Reason', value: (r) => r.reason },
  { header: 'Organization', value: (r) => r.organizationName },
  { header: 'Project number', value: (r) => r.projectNum },
  { header: 'Project', value: (r) => r.projectName },
  { header: 'Serialization', value: (r) => r.serialization },
  { header: 'Vintage', value: (r) => r.vintage },
  { header: 'Claimed', value: (r) => (r.isClaimed ? 'yes' : 'no') },
  { header: 'Id', value: (r) => r.id },
];

const inventoryColumns: CsvColumn<InventoryCreditRow>[] = [
  { header: 'Credit', value: (c) => c.id },
  { header: 'Project number', value: (c) => c.projectNum },
  { header: 'Project', value: (c) => c.projectName },
  { header: 'Serialization', value: (c) => c.serialization },
  { header: 'Vintage', value: (c) => c.vintage },
  { header: 'Type', value: (c) => c.type },
  { header: 'Amount (tCO2e)', value: (c) => c.amount },
  { header: 'Supply', value: (c) => c.supply },
  { header: 'Unit', value: (c) => c.unit },
  { header: 'Token id', value: (c) => c.tokenId },
  { header: 'Token address', value: (c) => c.tokenAddress },
];

const warehouseColumns: CsvColumn<WarehouseInventoryCredit>[] = [
  { header: 'Credit', value: (c) => c.id },
  { header: 'Project number', value: (c) => c.project.num },
  { header: 'Project', value: (c) => c.project.fullName },
  { header: 'Serialization', value: (c) => c.serialization },
  { header: 'Vintage', value: (c) => creditVintage(c) },
  { header: 'Type', value: (c) => c.type },
  { header: 'Available (tCO2e)', value: (c) => c.amount },
  { header: 'Held (tCO2e)', value: (c) => c.held ?? '' },
  { header: 'Reserved (tCO2e)', value: (c) => c.reserved ?? '' },
];

const auditColumns: CsvColumn<AuditEntryRow>[] = [
  { header: 'Time', value: (e) => e.at },
  { header: 'Operator', value: (e) => e.operatorId ?? '' },
  { header: 'Actor', value: (e) => e.actor },
  { header: 'Action', value: (e) => e.action },
  { header: 'Outcome', value: (e) => e.outcome },
  { header: 'Targets', value: (e) => e.targetIds.join(' ') },
  { header: 'Detail', value: (e) => JSON.stringify(e.detail) },
  { header: 'Id', value: (e) => e.id },
];

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60) || 'export';

/** A CSV file the desk made; the service keeps it (artifacts.ts) and hands the renderer its handle. */
export interface CsvFile {
  baseName: string;
  bytes: Uint8Array;
}

function file(name: string, csv: string): CsvFile {
  // A UTF-8 byte order mark makes spreadsheet programs read accented names correctly.
  return { baseName: `${name}.csv`, bytes: Buffer.from(`\uFEFF${csv}`, 'utf8') };
}

export async function exportCsv(sources: CsvSources, input: z.output<typeof csvExportInput>, today: string): Promise<CsvFile> {
  switch (input.list) {
    case 'projects':
      return file(
        `projects-${input.search.scope}-${today}`,
        toCsv(
          projectColumns,
          allPages((offset) => sources.searchProjects({ ...input.search, offset, limit: PAGE })),
        ),
      );
    case 'retirements':
      return file(
        `retirements-${today}`,
        toCsv(
          retirementColumns,
          allPages((offset) => sources.searchRetirements({ ...input.search, offset, limit: PAGE })),
        ),
      );
    case 'inventory': {
      const { list: _list, ...search } = input;
      return file(`inventory-${input.account}-${today}`, toCsv(inventoryColumns, sources.inventoryCredits(search)));
    }
    case 'warehouse': {
      const warehouse = await sources.warehouseCredits(input.organizationId);
      const listed = listWarehouseCredits(warehouse.credits, input);
      return file(`warehouse-${slug(warehouse.organizationName)}-${today}`, toCsv(warehouseColumns, listed));
    }
    case 'audit':
      return file(`audit-log-${today}`, toCsv(auditColumns, await sources.auditEntries(input.filter)));
  }
}
