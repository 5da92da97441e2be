// A feed snapshot into an empty cache: its rows go straight into their tables, inside the one
// transaction of a snapshot load (cache/snapshot-writers.ts), not staged.
import { hashJson, hashJsonBytes } from '@desk/cache/rows';
import type { SnapshotLoad } from '@desk/cache/snapshot-writers';
import type { DeskCache } from '@desk/cache';
import type { StepContext, StepOutcome } from './context';
import { cursorScope, noteOf, readPages, removedIds, type FeedResource, type ItemSink } from './feed-read';
import { pageReader } from './feed-pages';

/** A snapshot into an empty cache: rows go straight into their tables, in the load's one transaction. */
export async function readIntoSnapshot(
  ctx: StepContext<DeskCache>,
  start: string,
  limit: number,
  load: SnapshotLoad,
): Promise<Record<FeedResource, StepOutcome>> {
  // The load is what this sync waits for: small pages are made ready on a thread of their own.
  const reader = pageReader(ctx, true);
  const sink: ItemSink = {
    project: (row) => load.project('public', row),
    internalProject: (row, detailsJson) => {
      // Without examiner:read the feed sends none; were one sent, it would not be kept (as staged).
      if (!ctx.examinerRead) return;
      load.project('internal', row);
      load.details(row.id, detailsJson, row.hash);
    },
    credits: (id, json, listHash) => load.credits(id, json, listHash),
    retirement: (row) => load.retirement(row),
    inventory: (account, inventory) => {
      // An account's answer can be tens of MB at scale: its credits are parsed, checked and written
      // one by one; its hash is the staged path's (of the answer's text as sent).
      function* credits() {
        for (const credit of inventory.credits()) {
          const json = JSON.stringify(credit);
          yield { id: credit.id, json, hash: hashJson(json) };
        }
      }
      load.inventory({
        account,
        summary: inventory.summary,
        organization: inventory.organization,
        credits: credits(),
        // (the hash of the answer's UTF-8 bytes is the hash of its text: hashJson hashes UTF-8)
        answerHash: () => hashJsonBytes(inventory.bytes),
      });
    },
    idleWork: (ended) => load.idleWork(ended),
  };
  const read = await readPages(ctx, start, limit, sink, reader).finally(() => reader?.close());
  const { cache } = ctx;
  load.markProponents();
  const removed = removedIds(read);
  const removedRows = cache.write.removeFeedRows(removed);
  const counts = load.finish(ctx.examinerRead);
  const installed = new Set(ctx.installations.map((i) => i.organizationId));
  cache.write.putFeedOrganizations([...read.organizations.values()], installed, removed.organizations);
  cache.write.setFeedCursor(`${cursorScope(ctx)}:${read.cursor}`);
  // The load's WAL is checkpointed in the background meanwhile (cache/deferred-checkpoint.ts).
  void load.commit();
  const note = noteOf('loaded', read.items, removedRows);
  const ok = (written: number): StepOutcome => ({ status: 'ok', written, deleted: 0, note });
  const skipped: StepOutcome = { status: 'skipped', reason: 'the app lacks examiner:read' };
  return {
    projects: ok(counts.projects),
    internalProjects: ctx.examinerRead ? ok(counts.internalProjects) : skipped,
    projectDetails: ctx.examinerRead ? ok(counts.projectDetails) : skipped,
    credits: ok(counts.credits),
    inventories: ok(counts.inventories),
    retirements: ok(counts.retirements),
  };
}
