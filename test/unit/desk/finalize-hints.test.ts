// Which token a wallet retired, for the Finalize form, from the desk's own data. Without an operator
// account there is no credit history to read it from; a retirement made by finishing a warehouse
// reservation is named by that reservation, with its token, in the warehouses the desk syncs.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDeskCache, type DeskCache } from '@desk/cache';
import { hashJson } from '@desk/cache/rows';
import { finalizeHints } from '@desk/finalize-hints';
import type { Reservation, Retirement } from '@shared/registry/resources';
import { makeDataDir } from '@test/support/registry';

const dir = makeDataDir('desk-finalize-hints-');
let cache: DeskCache;
const projectRef = { id: 'p1', fullName: 'Lamu Mangroves', url: '', publicUrl: '', num: '1' };
const at = '2026-11-29T04:02:00.000Z';

const reservation = (id: string, retirementId: string | null): Reservation => ({
  id,
  creditId: `exPost-8-0xAbCdEf0000000000000000000000000000000001`,
  serialization: 'ICR-KEN-1-1-8-P-1-2024',
  amount: 2,
  createdAt: at,
  state: retirementId ? 'processed' : 'pending',
  retirementId,
  updatedAt: at,
  tokenId: '8',
  tokenAddress: '0xAbCdEf0000000000000000000000000000000001',
  type: 'exPost',
  reservedToDate: at,
  isComplete: retirementId !== null,
  project: projectRef,
  reserver: { id: 'app-1', name: 'Desk app' },
});

beforeAll(() => {
  cache = openDeskCache(join(dir.dir, 'cache.sqlite'));
  const retirement = (id: string): Retirement => ({ id, createdAt: at, isClaimed: false, amount: 2, project: projectRef });
  cache.write.beginStaging('retirements');
  cache.write.stage(
    'retirements',
    ['r-from-reservation', 'r-elsewhere'].map((id) => {
      const json = JSON.stringify(retirement(id));
      return { id, hash: hashJson(json), json };
    }),
  );
  cache.write.commitRetirements({ full: true, pageHashes: [] });
  cache.write.replaceWarehouses([
    {
      organizationId: 'o1',
      organizationName: 'Baobab Roots',
      canWrite: true,
      credits: [],
      reservations: [reservation('res-1', null), reservation('res-2', 'r-from-reservation')],
    },
  ]);
});
afterAll(() => {
  cache.close();
  dir.remove();
});

it('names the token of the reservation whose finish made the retirement, without a credit history', () => {
  expect(finalizeHints(cache, 'r-from-reservation')).toMatchObject({
    retiredTokenId: '8',
    projectAddress: '0xabcdef0000000000000000000000000000000001',
  });
});

it('names none when no record the desk keeps shows the retirement', () => {
  expect(finalizeHints(cache, 'r-elsewhere')).toMatchObject({ retiredTokenId: null, projectAddress: null });
});
