// The changes feed's pages (GET /sync/v1/changes): each downloaded into a reused buffer and made
// ready for writing through the pipeline of worker/page-pipeline.ts (its envelope checked, its
// items parsed, checked, serialized and hashed: worker/page-prep.ts), the small pages of a first
// sync on a thread of their own (worker/page-reader.ts).
import type { EndpointId } from '@shared/registry/endpoints';
import { RegistryClientError } from '@desk/client/errors';
import type { ExchangeWatch } from '@desk/client/call-types';
import type { StepContext } from './context';
import { readerOnItsOwnThread, type PageReader } from './worker/page-reader';

export { readingJson } from './worker/page-prep';
export const FEED_ENDPOINT: EndpointId = 'getChanges';

/**
 * How long one page may take, its download included: a page holds up to `limit` resources, and an
 * account's inventory is one resource (tens of MB at --scale 100), so the client's usual timeout
 * would cut a large page off on a loaded machine.
 */
export const FEED_PAGE_TIMEOUT_MS = 120_000;

/** The registry does not offer the feed (the public registry the seed interface describes does not). */
export class FeedNotOffered extends Error {}

/**
 * Downloads the page after `cursor` into the buffer `into` gives, `watch` told as it goes (see
 * callBytes); a 404 or 405 says the registry has no feed.
 */
export async function fetchPageBytes(
  ctx: StepContext,
  cursor: string,
  limit: number,
  into: (size: number) => Buffer,
  watch?: ExchangeWatch,
): Promise<Buffer> {
  try {
    const query = { cursor, limit };
    return (await ctx.client.callBytes(FEED_ENDPOINT, { query, timeoutMs: FEED_PAGE_TIMEOUT_MS }, into, watch)).bytes;
  } catch (error) {
    if (error instanceof RegistryClientError && error.kind === 'http' && (error.status === 404 || error.status === 405)) {
      throw new FeedNotOffered(`the registry does not offer ${FEED_ENDPOINT}`);
    }
    throw error;
  }
}

/**
 * Who prepares the small pages: a thread of its own for a snapshot loaded into an empty cache (the
 * sync's thread is what that load waits for), the sync's thread otherwise (null: a re-sync's pages
 * are few, and a thread costs its start).
 */
export function pageReader(ctx: StepContext, directLoad: boolean): PageReader | null {
  const thread = directLoad ? ctx.pageReaderThread : undefined;
  return thread ? readerOnItsOwnThread(thread.script, thread.workerData, ctx.examinerRead) : null;
}
