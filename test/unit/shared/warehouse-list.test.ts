// The warehouse inventory as a list: search, filters whose counts respect the other filters, sort, totals.
import { describe, expect, it } from 'vitest';
import { creditVintage, DEFAULT_WAREHOUSE_QUERY, listWarehouseCredits, totalGrams, warehouseFacets } from '@shared/desk/warehouse-list';
import type { WarehouseInventoryCredit } from '@shared/registry/resources';

function credit(id: string, project: string, vintage: string, type: string, amount: number): WarehouseInventoryCredit {
  return {
    id,
    inventoryId: 'w',
    organizationId: 'o',
    project: { id: `p-${project}`, num: project.length.toString(), fullName: project } as WarehouseInventoryCredit['project'],
    serialization: `NCR-BRA-1-10-${id}-P-1-${vintage}`,
    amount,
    type,
  };
}

const credits = [
  credit('1', 'Mangroves', '2021', 'exPost', 10.5),
  credit('2', 'Mangroves', '2022', 'exAnte', 1),
  credit('3', 'Wind farm', '2021', 'exAnte', 0.000001),
  credit('4', 'Cookstoves', '2020', 'exPost', 1200),
];

describe('warehouse list', () => {
  it('reads the vintage from the serialization', () => {
    expect(creditVintage(credits[0]!)).toBe('2021');
  });

  it('searches, filters and sorts', () => {
    const q = { ...DEFAULT_WAREHOUSE_QUERY, query: 'mangro' };
    expect(listWarehouseCredits(credits, q).map((c) => c.id)).toEqual(['1', '2']);
    expect(listWarehouseCredits(credits, { ...q, filters: { type: 'exAnte' } }).map((c) => c.id)).toEqual(['2']);
    const byAmount = { ...DEFAULT_WAREHOUSE_QUERY, sort: { field: 'amount' as const, direction: 'desc' as const } };
    expect(listWarehouseCredits(credits, byAmount).map((c) => c.id)).toEqual(['4', '1', '2', '3']);
  });

  it('counts each facet value under the search and the other filters', () => {
    const facets = warehouseFacets(credits, { ...DEFAULT_WAREHOUSE_QUERY, filters: { type: 'exAnte', vintage: '2020' } });
    // Vintages under type exAnte: 2022 (1), 2021 (1); 2020 stays as the chosen value with 0.
    expect(facets.vintages).toEqual([
      { value: '2022', count: 1 },
      { value: '2021', count: 1 },
      { value: '2020', count: 0 },
    ]);
    // Types under vintage 2020: exPost only, and the chosen exAnte with 0.
    expect(facets.types).toEqual([
      { value: 'exAnte', count: 0 },
      { value: 'exPost', count: 1 },
    ]);
  });

  it('totals exactly in grams', () => {
    expect(totalGrams(credits)).toBe(1_211_500_001);
  });
});
