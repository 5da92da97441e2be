// Which of a first sync's two helper threads the sync worker starts: the history check's replay
// (replay-thread.ts) and the feed's page reader (page-reader.ts). A helper moves work off the sync's
// thread but adds work of its own, and only shortens a sync when a core is free for it:
// - the replay adds little (what it hands over crosses as transferred buffers, not copies), and
//   runs beside the sync's waits: with two cores it has its thread (a --scale 100 first sync through
//   the seed interface took 31.9 s with it, 35.5 s without, on two cores shared with the registry);
// - the page reader's prepared items are copied across and collected in two heaps: on two cores
//   shared with a registry on the same machine, the --scale 100 first sync from the feed took
//   1.5-2.5 s more of the desk's CPU with it, about 1 s longer, and peaked 20-25 MB higher. It has
//   its thread only where a core is left for it beside the sync's, the replay's and, when the
//   registry is on this machine, the registry's (bench/README.md, item 4, s96).
import { availableParallelism } from 'node:os';
import { isLoopbackUrl } from '@desk/client/http';

export interface HelperThreads {
  /** A long history replay runs on a thread of its own. */
  replay: boolean;
  /** A first sync's small feed pages are read on a thread of its own. */
  pageReader: boolean;
}

/**
 * The helpers for a sync of the registry at `baseUrl` on a machine of `cores` logical cores. A
 * registry on this machine (a loopback address: the embedded one, or a server beside the desk)
 * takes a core of them.
 */
export function helperThreadsFor(baseUrl: string, cores: number = availableParallelism()): HelperThreads {
  const left = cores - 2 - (isLoopbackUrl(baseUrl) ? 1 : 0);
  return { replay: cores >= 2, pageReader: left >= 1 };
}
