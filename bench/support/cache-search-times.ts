// Search latency on a synced desk cache, as a user types and sorts (the sync bench's last figures).
import { openDeskCache } from '@desk/cache';

/** Search latency on a synced cache: typing sequences, filters, sorts, deep pages. */
export function searchTimes(cacheFile: string): number[] {
  const cache = openDeskCache(cacheFile);
  const times: number[] = [];
  const time = (fn: () => unknown) => {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  };
  const words = [
    'k',
    'ki',
    'kil',
    'fore',
    'forest',
    'solar',
    'm',
    'ma',
    'man',
    'mangrove',
    'a',
    'an',
    'ann',
    'anna',
    'mü',
    'mull',
    'icr',
    'icr-',
    '20',
    '2022',
    'brazil',
    'ken',
    'cook',
    'wind',
  ];
  for (let round = 0; round < 3; round++) {
    for (const q of words) {
      time(() => cache.searchProjects({ query: q, scope: 'internal', limit: 100 }));
      time(() => cache.searchProjects({ query: q, sort: { field: 'relevance', direction: 'asc' } }));
      time(() => cache.searchRetirements({ query: q, limit: 100 }));
      time(() => cache.searchRetirements({ query: q, sort: { field: 'amount', direction: 'desc' } }));
    }
    for (const field of ['num', 'name', 'status', 'country', 'startDate'] as const) {
      time(() => cache.searchProjects({ sort: { field, direction: 'desc' }, offset: 5000, limit: 100 }));
      time(() => cache.searchProjects({ filters: { countryCode: 'BR' }, sort: { field, direction: 'asc' } }));
    }
    for (const field of ['createdAt', 'amount', 'beneficiary', 'project'] as const) {
      time(() => cache.searchRetirements({ sort: { field, direction: 'asc' }, offset: 50_000, limit: 100 }));
      time(() => cache.searchRetirements({ filters: { claimed: true, vintage: '2020' }, sort: { field, direction: 'desc' } }));
    }
    time(() => cache.searchProjects({ filters: { vintage: '2021' } }));
    time(() => cache.projectFacets('internal'));
  }
  cache.close();
  return times;
}
