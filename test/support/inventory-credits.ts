// The inventory credits of the desk's inventory query tests: a few projects whose names, numbers and
// serializations meet the search rules' edge cases, credits made from them (ties and fractions
// included), and writing an account's credits into a cache the way the sync does.
import type { DeskCache } from '@desk/cache';
import { hashJson } from '@desk/cache/rows';
import type { InventoryAccount } from '@shared/desk/api';
import type { InventoryCredit } from '@shared/registry/resources';

export const PROJECTS = [
  { id: 'p-kili', fullName: 'Kilimanjaro Reforestation', num: '1031', country: 'KEN' },
  { id: 'p-mangrove', fullName: 'mangrove Delta Restoration', num: '1032', country: 'IDN' },
  { id: 'p-sao', fullName: 'São Paulo Solar', num: '207', country: 'BRA' },
  { id: 'p-kiln', fullName: 'Kiln Cookstoves II', num: '1100', country: 'KEN' },
  { id: 'p-zeta', fullName: 'Zeta Wind', num: '9', country: 'IND' },
  // A name that starts like the serializations: text matching both ways counts each credit once.
  { id: 'p-rdr', fullName: 'Rdr Valley Biochar', num: '4410', country: 'KEN' },
];

export function makeCredit(i: number): InventoryCredit {
  const p = PROJECTS[(i * 7) % PROJECTS.length]!;
  const type = i % 5 === 0 ? 'exAnte' : 'exPost';
  const vintage = String(2016 + (i % 6));
  const address = `0x${(0xabc000 + ((i * 7) % PROJECTS.length)).toString(16).padStart(40, '0')}`;
  return {
    organizationId: 'op',
    id: `${type}-${i + 1}-${address}`,
    tokenId: String(i + 1),
    tokenAddress: address,
    project: { id: p.id, fullName: p.fullName, url: `http://r/projects/${p.id}`, publicUrl: `https://pub/${p.id}`, num: p.num },
    serialization: `RDR-${p.country}-1-${p.num}-${i + 1}-${type === 'exPost' ? 'P' : 'A'}-0-${vintage}`,
    vintage,
    // Amounts repeat (ties are ordered by serialization, then id) and have fractions.
    amount: (i % 13) + 0.25,
    supply: 1000 - (i % 17) * 3.5,
    unit: 'tonne',
    type,
  };
}

export const BUFFER = Array.from({ length: 230 }, (_, i) => makeCredit(i));
export const ORGANIZATION = BUFFER.slice(0, 12).map((c) => ({ ...c, amount: c.amount * 2 }));

/** Writes an account's credits as the sync does: staged, then swapped in. */
export function putInventory(cache: DeskCache, accounts: Partial<Record<InventoryAccount, InventoryCredit[]>>) {
  cache.write.beginInventoryStaging();
  const changed = [];
  for (const [account, credits] of Object.entries(accounts) as [InventoryAccount, InventoryCredit[]][]) {
    cache.write.stageInventoryCredits(
      account,
      credits.map((c) => ({ id: c.id, hash: hashJson(JSON.stringify(c)), json: JSON.stringify(c) })),
    );
    changed.push({
      account,
      answerHash: `hash-${account}`,
      summary: { exPost: 1, exAnte: 2, retired: 3 },
      organization: { fullName: 'Op', logo: '', id: 'op', publicUrl: '' },
      creditCount: credits.length,
    });
  }
  return cache.write.commitInventories(changed);
}
