// A first sync's load of `n` made-up retirements into an empty desk cache, through the snapshot
// writers the feed uses (cache/snapshot-writers.ts): finished, not committed. For the tests of what
// a load leaves to do after its commit, and for the process that dies right after one
// (load-then-die.ts).
import type { Retirement } from '@shared/registry/resources';
import type { DeskCache } from '@desk/cache';
import { beginSnapshotLoad } from '@desk/cache/snapshot-writers';
import { retirementColumns } from '@desk/cache/rows';

/** `projectNamePadding`: that many more characters in each project name (larger rows, for tests of the WAL's size). */
export function loadRetirements(cache: DeskCache, n: number, { projectNamePadding = 0 } = {}) {
  const padding = projectNamePadding > 0 ? ` ${'x'.repeat(projectNamePadding)}` : '';
  const snapshot = beginSnapshotLoad(cache.db, () => 0);
  for (let i = 0; i < n; i++) {
    const retirement = {
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      isClaimed: i % 3 === 0,
      createdAt: new Date(Date.UTC(2026, 0, 1) + (i % 97) * 3_600_000).toISOString(),
      amount: (i * 7919) % 1000,
      beneficiary: ['Ålesund Kommune', 'acme', 'Zürich AG', 'bravo', 'Łódź'][i % 5]!,
      reason: 'Travel',
      comment: '',
      organizationId: 'o-1',
      serialization: `S-${i}`,
      organizationOwner: { fullName: 'Org', logo: '', id: 'o-1', publicUrl: '' },
      vintage: String(2018 + (i % 5)),
      project: { id: `p-${i % 13}`, fullName: `Project ${(i * 31) % 13}${padding}`, num: String(i % 13) },
    } as Retirement;
    snapshot.parts.retirements!.retirement({
      id: retirement.id,
      json: JSON.stringify(retirement),
      hash: `h${i}`,
      columns: retirementColumns(retirement),
    });
  }
  snapshot.finish(false);
  return snapshot;
}

/**
 * Commits `load` and closes its cache at once, before the work its commit leaves for after it
 * (deferred indexes, checkpoint); settles once that work has ended or been given up.
 */
export async function commitAndCloseAtOnce(cache: DeskCache, load: ReturnType<typeof loadRetirements>): Promise<void> {
  const done = load.commit();
  cache.close();
  await done;
}
