// Inventory credit queries on a real cache file: search (project words, project number,
// serialization prefix, a single character), each filter, each sort both ways, paging edges,
// lower-bound counts, facets, the export stream, and bad input refused with nothing changed.
// Results are compared with a plain reference implementation of the same rules.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CacheInputError, openDeskCache, type DeskCache } from '@desk/cache';
import { INVENTORY_SORT_FIELDS, SEARCH_COUNT_LIMIT, type InventoryCreditRow, type InventoryCreditSearchInput } from '@shared/desk/api';
import type { InventoryCredit } from '@shared/registry/resources';
import { makeDataDir } from '@test/support/registry';
import { inventoryRowOf } from '@test/support/inventory-rows';
import { BUFFER, makeCredit, ORGANIZATION, putInventory } from '@test/support/inventory-credits';
import { reference } from '@test/support/inventory-reference';

const asRow = inventoryRowOf;

let data: { dir: string; remove(): void };
let cache: DeskCache;

beforeAll(() => {
  data = makeDataDir('desk-inventory-queries-');
  cache = openDeskCache(join(data.dir, 'cache.sqlite'));
  putInventory(cache, { buffer: BUFFER, organization: ORGANIZATION, adjustment: [] });
});
afterAll(() => {
  cache.close();
  data.remove();
});

describe('inventory credits: search, filters, sorts', () => {
  const QUERIES = [
    '',
    'k',
    'K',
    'z',
    'r',
    'rd',
    'rdr v',
    'rdr-k',
    'ki',
    'kil',
    'kilimanjaro',
    'KILIMANJARO REFOR',
    'refor kili',
    'mangrove delta',
    'delta',
    'sao',
    'são paulo',
    '1031',
    '10',
    '103',
    '9',
    'ii',
    'rdr',
    'RDR-KEN',
    'rdr-ken-1-1031-1',
    'RDR-IDN-1-1032-2',
    'RDR KEN',
    'nothing',
    '"kil*',
    'kil OR zeta',
    '-',
  ];
  const FILTERS: InventoryCreditSearchInput['filters'][] = [
    {},
    { vintage: '2018' },
    { type: 'exAnte' },
    { type: 'exPost' },
    { projectId: 'p-kili' },
    { vintage: '2020', type: 'exPost' },
    { vintage: '2019', projectId: 'p-sao' },
    { vintage: '1999' },
  ];

  it('answers exactly the reference rows, in order, for every query, filter and sort', () => {
    let checked = 0;
    for (const query of QUERIES) {
      for (const filters of FILTERS) {
        for (const field of INVENTORY_SORT_FIELDS) {
          for (const direction of ['asc', 'desc'] as const) {
            const input = { account: 'buffer' as const, query, filters, sort: { field, direction }, limit: 500 };
            const expected = reference(BUFFER, input);
            const answer = cache.searchInventoryCredits(input);
            const label = JSON.stringify({ query, filters, field, direction });
            expect(answer.total, label).toBe(expected.length);
            expect(answer.totalIsLowerBound, label).toBeUndefined();
            expect(answer.rows, label).toEqual(expected.map(asRow));
            checked++;
          }
        }
      }
    }
    expect(checked).toBe(QUERIES.length * FILTERS.length * 12);
  });

  it('finds credits by project words, project number and serialization prefix, without regard to case or accents', () => {
    const ids = (query: string) => cache.searchInventoryCredits({ account: 'buffer', query, limit: 500 }).rows;
    expect(new Set(ids('sao paulo').map((r) => r.projectId))).toEqual(new Set(['p-sao']));
    expect(new Set(ids('1031').map((r) => r.projectId))).toEqual(new Set(['p-kili']));
    expect(
      ids('rdr-ken-1-1031-1')
        .map((r) => r.serialization)
        .every((s) => s.startsWith('RDR-KEN-1-1031-1')),
    ).toBe(true);
    expect(ids('rdr-ken-1-1031-1').length).toBeGreaterThan(0);
    // A single character: project names starting with it.
    expect(new Set(ids('m').map((r) => r.projectName))).toEqual(new Set(['mangrove Delta Restoration']));
    // FTS syntax typed by a user is only text.
    expect(ids('kil OR zeta')).toEqual([]);
    expect(ids('"kil*').length).toBe(BUFFER.filter((c) => c.project.fullName.startsWith('Kil')).length);
  });

  it('keeps the accounts apart', () => {
    const organization = cache.searchInventoryCredits({
      account: 'organization',
      sort: { field: 'amount', direction: 'desc' },
      limit: 500,
    });
    expect(organization.total).toBe(ORGANIZATION.length);
    expect(organization.rows).toEqual(
      reference(ORGANIZATION, { account: 'organization', sort: { field: 'amount', direction: 'desc' } }).map(asRow),
    );
    expect(cache.searchInventoryCredits({ account: 'organization', query: 'kili' }).total).toBe(
      reference(ORGANIZATION, { account: 'organization', query: 'kili' }).length,
    );
    expect(cache.searchInventoryCredits({ account: 'adjustment' })).toMatchObject({ total: 0, rows: [] });
  });

  it('pages without repeating or skipping a row, ties included, up to and past the end', () => {
    for (const field of ['amount', 'vintage', 'type'] as const) {
      const all = reference(BUFFER, { account: 'buffer', sort: { field, direction: 'desc' } }).map(asRow);
      const paged: InventoryCreditRow[] = [];
      for (let offset = 0; offset < all.length; offset += 17) {
        const page = cache.searchInventoryCredits({ account: 'buffer', sort: { field, direction: 'desc' }, offset, limit: 17 });
        expect(page.total).toBe(all.length);
        paged.push(...page.rows);
      }
      expect(paged).toEqual(all);
    }
    const last = cache.searchInventoryCredits({ account: 'buffer', offset: BUFFER.length - 1, limit: 10 });
    expect(last.rows).toHaveLength(1);
    expect(cache.searchInventoryCredits({ account: 'buffer', offset: BUFFER.length, limit: 10 }).rows).toEqual([]);
    expect(cache.searchInventoryCredits({ account: 'buffer', offset: 100_000, limit: 500 })).toMatchObject({
      total: BUFFER.length,
      rows: [],
    });
    expect(cache.searchInventoryCredits({ account: 'buffer', limit: 1 }).rows).toHaveLength(1);
    // A filtered search's pages too (read by the sparse path: few matches).
    const kili = reference(BUFFER, {
      account: 'buffer',
      query: 'kili',
      filters: { vintage: '2017' },
      sort: { field: 'supply', direction: 'asc' },
    }).map(asRow);
    const pages = [0, 3, 6, 9].flatMap(
      (offset) =>
        cache.searchInventoryCredits({
          account: 'buffer',
          query: 'kili',
          filters: { vintage: '2017' },
          sort: { field: 'supply', direction: 'asc' },
          offset,
          limit: 3,
        }).rows,
    );
    expect(pages).toEqual(kili.slice(0, 12));
  });

  it('counts the filter menus', () => {
    const facets = cache.inventoryFacets('buffer');
    const count = (pick: (c: InventoryCredit) => string) => {
      const counts = new Map<string, number>();
      for (const c of BUFFER) counts.set(pick(c), (counts.get(pick(c)) ?? 0) + 1);
      return counts;
    };
    expect(facets.vintages.map((v) => v.value)).toEqual([...count((c) => c.vintage).keys()].sort().reverse());
    for (const v of facets.vintages) expect(v.count).toBe(count((c) => c.vintage).get(v.value));
    expect(facets.types).toEqual([
      { value: 'exPost', label: 'exPost', count: count((c) => c.type).get('exPost') },
      { value: 'exAnte', label: 'exAnte', count: count((c) => c.type).get('exAnte') },
    ]);
    expect(cache.inventoryFacets('adjustment')).toEqual({ vintages: [], types: [] });
  });

  it('streams every row of a search for the export, in the list order', () => {
    const search = {
      account: 'buffer' as const,
      query: 'kil',
      filters: { type: 'exPost' },
      sort: { field: 'amount' as const, direction: 'desc' as const },
    };
    expect([...cache.inventoryCreditsOf(search)]).toEqual(reference(BUFFER, search).map(asRow));
    expect([...cache.inventoryCreditsOf({ account: 'buffer' })]).toHaveLength(BUFFER.length);
  });

  it('refuses bad input with CacheInputError and changes nothing', () => {
    const changes = () => cache.db.raw.prepare('SELECT total_changes()').pluck().get();
    const before = { changes: changes(), rows: cache.searchInventoryCredits({ account: 'buffer', limit: 500 }) };
    const bad: unknown[] = [
      { account: 'treasury' },
      {},
      { account: 'buffer', limit: 0 },
      { account: 'buffer', limit: 501 },
      { account: 'buffer', offset: -1 },
      { account: 'buffer', offset: 1.5 },
      { account: 'buffer', sort: { field: 'relevance' } },
      { account: 'buffer', sort: { field: 'amount', direction: 'up' } },
      { account: 'buffer', filters: { vintage: '20' } },
      { account: 'buffer', filters: { type: '' } },
      { account: 'buffer', query: 'x'.repeat(201) },
      { account: 'buffer', query: 42 },
    ];
    for (const input of bad) {
      expect(() => cache.searchInventoryCredits(input as InventoryCreditSearchInput), JSON.stringify(input)).toThrow(CacheInputError);
      expect(() => [...cache.inventoryCreditsOf(input as InventoryCreditSearchInput)], JSON.stringify(input)).toThrow(CacheInputError);
    }
    const error = (() => {
      try {
        cache.searchInventoryCredits({ account: 'buffer', limit: 0, filters: { vintage: 'x' } });
      } catch (e) {
        return e as CacheInputError;
      }
    })();
    expect(error?.issues).toHaveLength(2);
    expect(changes()).toBe(before.changes);
    expect(cache.searchInventoryCredits({ account: 'buffer', limit: 500 })).toEqual(before.rows);
  });
});

describe('inventory credits: counts past the limit', () => {
  it('counts a broad search up to the limit and says it is a lower bound; the whole account is counted exactly', () => {
    const d = makeDataDir('desk-inventory-large-');
    const big = openDeskCache(join(d.dir, 'cache.sqlite'));
    try {
      const credits = Array.from({ length: 13_000 }, (_, i) => makeCredit(i));
      putInventory(big, { buffer: credits });
      expect(big.searchInventoryCredits({ account: 'buffer', limit: 5 })).toMatchObject({ total: credits.length });
      expect(big.searchInventoryCredits({ account: 'buffer', limit: 5 }).totalIsLowerBound).toBeUndefined();
      const broad = big.searchInventoryCredits({
        account: 'buffer',
        query: 'rdr',
        sort: { field: 'amount', direction: 'desc' },
        offset: 10_050,
        limit: 100,
      });
      expect(broad).toMatchObject({ total: SEARCH_COUNT_LIMIT, totalIsLowerBound: true });
      // Pages past the lower bound still read on, in order.
      expect(broad.rows).toEqual(
        reference(credits, { account: 'buffer', query: 'rdr', sort: { field: 'amount', direction: 'desc' } })
          .slice(10_050, 10_150)
          .map(asRow),
      );
      expect(big.searchInventoryCredits({ account: 'buffer', filters: { type: 'exPost' }, limit: 1 })).toMatchObject({
        total: SEARCH_COUNT_LIMIT,
        totalIsLowerBound: true,
      });
      const narrow = reference(credits, { account: 'buffer', query: 'kili', filters: { vintage: '2018' } });
      expect(big.searchInventoryCredits({ account: 'buffer', query: 'kili', filters: { vintage: '2018' }, limit: 5 })).toMatchObject({
        total: narrow.length,
        rows: narrow.slice(0, 5).map(asRow),
      });
    } finally {
      big.close();
      d.remove();
    }
  });
});
