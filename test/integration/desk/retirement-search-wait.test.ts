// A text search of the retirements right after a first sync waits for the search entries its load
// left to be made after the commit (desk/methods/searchable.ts, cache/deferred-indexes.ts). On real
// cache files: a search made while they are pending answers once another connection (the sync's,
// in the desk) has made them, with the rows a search after the build answers; a search that needs
// no entries is answered at once; past the wait's bound the search fails with a message that says
// why; and any other failure of the read is passed on as it is.
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { CacheInputError, openDeskCache } from '@desk/cache';
import { whenSearchable } from '@desk/methods/searchable';
import { DeskFailure } from '@desk/errors';
import { makeDataDir } from '@test/support/registry';
import { commitAndCloseAtOnce, loadRetirements } from '@test/support/snapshot-retirements';

const work = makeDataDir('desk-search-wait-');
afterAll(() => work.remove());

/** A cache file whose first load committed with its retirements' search entries still to make. */
async function loadedFile(name: string): Promise<string> {
  const file = join(work.dir, name);
  const cache = openDeskCache(file);
  await commitAndCloseAtOnce(cache, loadRetirements(cache, 200));
  return file;
}

it('answers a text search once the entries are made on another connection, as after the build', async () => {
  const file = await loadedFile('wait.sqlite');
  const desk = openDeskCache(file);
  const sync = openDeskCache(file);
  let readsTried = 0;
  const search = () => {
    // The sync's connection makes them between the second try and the third.
    if (++readsTried === 3) expect(sync.write.buildDeferredIndexes()).toContain('retirements_fts');
    return desk.searchRetirements({ query: 'zurich', limit: 100 });
  };
  const vintages = whenSearchable(() => desk.retirementFacets('zurich'));

  const { asOf: _asOf, ...listed } = await whenSearchable(search);
  expect(readsTried).toBe(3);
  expect(listed.total).toBe(40);
  expect(listed.rows.every((row) => row.beneficiary === 'Zürich AG')).toBe(true);
  const { asOf: _again, ...after } = desk.searchRetirements({ query: 'zurich', limit: 100 });
  expect(listed).toEqual(after);
  expect(await vintages).toEqual(desk.retirementFacets('zurich'));
  desk.close();
  sync.close();
});

it('answers a search that needs no search entries at once', async () => {
  const desk = openDeskCache(await loadedFile('at-once.sqlite'));
  let readsTried = 0;
  const listed = await whenSearchable(() => {
    readsTried++;
    return desk.searchRetirements({ query: 'z', filters: { claimed: true }, limit: 10 });
  }, 0);
  expect(readsTried).toBe(1);
  expect(listed.rows.length).toBeGreaterThan(0);
  desk.close();
});

it('fails past its bound with a message that says why, and passes any other failure on', async () => {
  const desk = openDeskCache(await loadedFile('bound.sqlite'));
  const failed = await whenSearchable(() => desk.searchRetirements({ query: 'acme', limit: 5 }), 100).catch((error: unknown) => error);
  expect(failed).toBeInstanceOf(DeskFailure);
  expect((failed as DeskFailure).toDeskError()).toEqual({
    code: 'conflict',
    message: 'The desk is still preparing the search of the retirements it has just synced: try the search again in a moment.',
  });

  const refused = await whenSearchable(() => desk.searchRetirements({ query: 'acme', limit: 0 })).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(CacheInputError);
  desk.close();
});
