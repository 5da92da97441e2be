// The registry's public transparency endpoints as the desk reads them: plain GETs (no token: the
// endpoints are public and outside the endpoint table), and the leaves [start, end) fetched a few
// pages ahead so a first sync of a long log is not one round trip per page.
import { RegistryClientError } from '../client/errors';
import { fetchTransport, isLoopbackUrl, type FetchLike } from '../client/http';
import { transportFor } from '../client/node-http';
import type { Get, ServedLeaf } from '@shared/transparency/verifier';
import { LogVerificationError } from '@shared/transparency/verifier';

/**
 * Pages asked at once, and the leaves asked per page (the registry serves at most 1,000). A first
 * sync waits for the whole log over a network: at scale 10 its 30 pages are 2 round trips at 16
 * ahead rather than 4 at 8; a page held ahead is about half a megabyte.
 */
const PAGES_AHEAD = 16;
const PAGE = 1000;

/**
 * The check's GET: through the desk's own transport (client/node-http.ts: one inflate per answer,
 * kept-alive connections), or through `fetchFn` when one is given (tests that alter answers).
 * Compressed only away from this computer, as the registry client asks (client/http.ts): on
 * loopback gzip costs both ends CPU (a first sync's whole log at --scale 100 is about 300 pages)
 * and saves no time.
 */
export function transparencyGet(baseUrl: string, fetchFn?: FetchLike, timeoutMs = 30_000): Get {
  const base = baseUrl.replace(/\/+$/, '');
  const transport = fetchFn ? fetchTransport(fetchFn) : transportFor(base);
  const headers = { 'accept-encoding': isLoopbackUrl(base) ? 'identity' : 'gzip, br' };
  const once = async (path: string) => {
    const res = await transport(`${base}${path}`, { method: 'GET', headers, body: undefined, timeoutMs, where: `GET ${path}` });
    return { status: res.status, text: await res.text() };
  };
  return async (path) => {
    try {
      // once more after a network failure: a kept-alive connection the registry closed fails the first try
      return await once(path).catch((error: unknown) => {
        if (isTimeout(error)) throw error;
        return once(path);
      });
    } catch (error) {
      const timedOut = isTimeout(error);
      throw new RegistryClientError(
        timedOut ? 'timeout' : 'network',
        `GET ${path}: ${timedOut ? 'timed out' : 'the registry cannot be reached'}`,
        {
          cause: error,
        },
      );
    }
  };
}

const isTimeout = (error: unknown) => error instanceof DOMException && error.name === 'TimeoutError';

async function page(get: Get, start: number, end: number): Promise<ServedLeaf[]> {
  const { status, text } = await get(`/transparency/v1/leaves?start=${start}&end=${end}`);
  if (status !== 200) throw new LogVerificationError('unreachable', `GET /transparency/v1/leaves answered ${status}`);
  const leaves = (JSON.parse(text) as { leaves?: unknown }).leaves;
  if (!Array.isArray(leaves)) throw new LogVerificationError('replay', 'a page of leaves without its leaves');
  return leaves as ServedLeaf[];
}

/** The leaves [start, end), in order, handed to `each` page by page; a short page is completed by asking again. */
export async function fetchLeavesAhead(
  get: Get,
  start: number,
  end: number,
  each: (leaves: ServedLeaf[], from: number) => void,
): Promise<void> {
  // Page i is the leaves [start + i * PAGE, …), computed when asked: nothing is listed per page.
  const pages = Math.ceil((end - start) / PAGE);
  const chunk = (i: number) => [start + i * PAGE, Math.min(end, start + (i + 1) * PAGE)] as const;
  // Only the pages ahead are held: a page is dropped once awaited, so the replay's memory stays a few
  // pages however long the log (holding every page parsed ran a first sync at scale 100 out of heap).
  const pending = new Map<number, Promise<ServedLeaf[]>>();
  const ask = (i: number) => {
    if (i >= pages) return;
    const asked = page(get, ...chunk(i));
    // awaited in its turn; a failure before then must not count as unhandled
    asked.catch(() => {});
    pending.set(i, asked);
  };
  for (let i = 0; i < PAGES_AHEAD; i++) ask(i);
  for (let i = 0; i < pages; i++) {
    const [from, to] = chunk(i);
    const asked = pending.get(i)!;
    pending.delete(i);
    let leaves = await asked;
    ask(i + PAGES_AHEAD);
    let next = from;
    while (true) {
      if (leaves.length === 0 || leaves.length > to - next)
        throw new LogVerificationError('truncated', `the registry serves no leaf ${next} below ${to}`);
      each(leaves, next);
      next += leaves.length;
      if (next >= to) break;
      leaves = await page(get, next, to);
    }
  }
}
