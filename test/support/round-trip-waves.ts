// A network in round trips, not milliseconds: every request the desk's client sends through this
// fetch is answered by the real registry, and the answer is held until every request in flight
// has been answered; then they are all handed back at once. Each such release ends a round trip,
// so a test counts in which round trip a request was sent, however loaded the machine is: a
// request that could only be sent after another's answer lands a round trip later. A link that
// carries only so many answers a round trip holds the others for the next.
import type { FetchLike } from '@desk/client/http';

export interface RoundTripWaves {
  fetch: FetchLike;
  /** The round trip (from 0) each request was sent in, by its path and query. */
  sentIn: Map<string, number>;
  /** Round trips ended so far: times in round trips, for a gate's clock (`gate.now`). */
  rounds(): number;
  /** Runs `work`, releasing the held answers round trip by round trip until it settles. */
  drive<T>(work: Promise<T>): Promise<T>;
}

export interface RoundTripWavesOptions {
  /**
   * The most answers a round trip carries (all by default): a full link. The rest stay held, oldest
   * first, for the round trips after, as they would queue at its narrowest point.
   */
  answersPerRound?: number;
}

export function roundTripWaves(options: RoundTripWavesOptions = {}): RoundTripWaves {
  const answersPerRound = options.answersPerRound ?? Infinity;
  let round = 0;
  let inFlight = 0;
  const held: (() => void)[] = [];
  const sentIn = new Map<string, number>();
  const fetchThrough: FetchLike = async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    sentIn.set(`${url.pathname}${url.search}`, round);
    inFlight++;
    try {
      const answer = await fetch(input, init);
      await new Promise<void>((release) => held.push(release));
      return answer;
    } finally {
      inFlight--;
    }
  };
  return {
    fetch: fetchThrough,
    sentIn,
    rounds: () => round,
    async drive(work) {
      let settled = false;
      const done = work.finally(() => (settled = true));
      while (!settled) {
        // A turn of the event loop: what the answers released last set off has been sent.
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (held.length > 0 && held.length === inFlight) {
          round++;
          const answered = held.splice(0, answersPerRound);
          for (const release of answered) release();
        }
      }
      return done;
    },
  };
}
