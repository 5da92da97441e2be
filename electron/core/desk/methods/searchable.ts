// A text search of the retirements right after a first sync waits for their search entries: the
// load leaves them to be made after its commit, in the background (cache/deferred-indexes.ts; about
// a second at --scale 100), and the search refuses until then (SearchEntriesPending) rather than
// answer other rows. The read is tried again every POLL_MS; past the wait's bound (a writer held the
// cache past its busy timeout, and the entries wait for the next sync run) the search fails with a
// message that says so, and changes nothing.
import { setTimeout as delay } from 'node:timers/promises';
import { SearchEntriesPending } from '@desk/cache/deferred-indexes';
import { DeskFailure } from '@desk/errors';

const POLL_MS = 25;
/** How long a search waits for the entries, at most (as attempts POLL_MS apart). */
export const SEARCH_WAIT_MS = 15_000;

/** The answer of `read`, once the search entries it needs are there. */
export async function whenSearchable<T>(read: () => T, waitMs: number = SEARCH_WAIT_MS): Promise<T> {
  for (let waited = 0; ; waited += POLL_MS) {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof SearchEntriesPending)) throw error;
      if (waited >= waitMs)
        throw new DeskFailure(
          'conflict',
          'The desk is still preparing the search of the retirements it has just synced: try the search again in a moment.',
        );
    }
    await delay(POLL_MS);
  }
}
