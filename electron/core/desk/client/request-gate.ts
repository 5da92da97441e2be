// How many requests the client keeps in flight to one registry. Over a network a sync is bound by
// round trips: 2,000 per-project answers 8 at a time cost 250 round trips, 12 s at 50 ms. So the
// gate learns the link: it opens while answers come back as fast as the fastest seen (the link is
// not full, the registry not queueing), and closes when they slow down (the registry or the link
// is saturated: more in flight would only wait in a queue). A gradient limiter, as TCP Vegas:
//
//   gradient = clamp(1.5 × fastest / recent, 0.5, 1);  limit ← limit × gradient + √limit (smoothed)
//
// "Recent" is the quickest answer of about the last round trip (the last `limit` answers), as Vegas
// takes its RTT, not an average. The desk's thread notices answers one after another: a round
// trip's answers arrive together and the last of them waits behind the others' parsing and
// writing (and behind a batch's SQLite commit), so an average grows with the limit when neither
// the link nor the registry queues anything, and at 50 ms that lag ate the 25 ms of slack. The
// quickest answer of a round trip is free of it while the desk keeps up; a standing queue (the
// link, the registry, or a desk that no longer keeps up) delays every answer, that one too.
//
// within [floor, cap]: the floor is what a registry on this machine was always sent (8), the cap
// keeps a small registry from being hammered. A refusal (429, 503) or a timeout halves the limit,
// down to one, and a Retry-After holds every new request back until it has passed.

export interface RequestGateOptions {
  /** Requests in flight at first, and the least the gradient closes to (refusals go lower). */
  floor?: number;
  /** The most in flight to one registry, however fast it answers. */
  cap?: number;
  /** Monotonic milliseconds, for answer times (performance.now by default). */
  now?: () => number;
  /** Waits out a Retry-After (the client's injectable sleep). */
  sleep: (ms: number) => Promise<void>;
}

export interface GateStats {
  /** Requests allowed in flight now. */
  limit: number;
  /** The most that were in flight at once. */
  peakInFlight: number;
  /** The fastest answer seen lately (ms), null before any. */
  fastestMs: number | null;
}

export interface RequestGate {
  /** Runs `exchange` when a slot is free; its time feeds the limit unless it failed. */
  run<T>(exchange: () => Promise<T>): Promise<T>;
  /** A refusal or a timeout: halve the limit; hold new requests back for `retryAfterMs` when given. */
  backOff(retryAfterMs?: number): void;
  stats(): GateStats;
}

export const GATE_FLOOR = 8;
/**
 * 128: at 150 ms a first sync's 2,000 per-project answers (scale 10) are 16 round trips rather than
 * 31 at 64 (the seed path's first sync 29.2 s against 32.8 s, bench/README.md). The gradient keeps
 * a registry that slows down under it from seeing anything near this many.
 */
export const GATE_CAP = 128;
/** Answers up to this many times the fastest still count as "not queueing". */
const TOLERANCE = 1.5;
/** Weight of a new limit in the limit. */
const LIMIT_WEIGHT = 0.2;
/** The fastest answer is forgotten after this many answers, so a route that got slower is learnt. */
const FASTEST_WINDOW = 1_000;

/** The least of the `count` times written last into `ring` (of `size` slots), the last at `lastAt`. */
function quickestOfLast(ring: readonly number[], lastAt: number, count: number, size: number): number {
  let least = Infinity;
  for (let i = 0; i < count; i++) least = Math.min(least, ring[(lastAt - i) % size]!);
  return least;
}

export function createRequestGate(options: RequestGateOptions): RequestGate {
  const floor = options.floor ?? GATE_FLOOR;
  const cap = Math.max(floor, options.cap ?? GATE_CAP);
  const now = options.now ?? (() => performance.now());
  let limit = floor;
  /** Lowered below the floor by refusals; climbs back with answers. */
  let least = floor;
  let inFlight = 0;
  let peakInFlight = 0;
  let fastest: number | null = null;
  let fastestNext: number | null = null;
  let samples = 0;
  /** The latest answer times, oldest overwritten first (`recent` is the least of the last `slots()`). */
  const latest: number[] = [];
  /** Answers timed since the gate started or last backed off. */
  let timed = 0;
  /** Set while a Retry-After is waited out: no request starts until it settles. */
  let hold: Promise<void> | null = null;
  const waiting: (() => void)[] = [];

  const slots = () => Math.max(1, Math.floor(limit));

  function admit() {
    while (waiting.length > 0 && inFlight < slots() && hold === null) {
      inFlight++;
      peakInFlight = Math.max(peakInFlight, inFlight);
      waiting.shift()!();
    }
  }

  function learn(ms: number, busy: number) {
    samples++;
    fastestNext = fastestNext === null ? ms : Math.min(fastestNext, ms);
    fastest = fastest === null ? ms : Math.min(fastest, ms);
    if (samples % FASTEST_WINDOW === 0) {
      fastest = fastestNext;
      fastestNext = null;
    }
    latest[timed % cap] = ms;
    timed++;
    const recent = quickestOfLast(latest, timed - 1, Math.min(timed, slots()), cap);
    // Refusals lowered the least; each answer earns a little of it back.
    if (least < floor) least = Math.min(floor, least + 1 / Math.max(1, least));
    // Only a limit that is used is raised: answers with few in flight say nothing about more. Nor
    // is it raised by a slow answer: `recent` is a round trip behind what the last raise did (its
    // answers are yet to come), and only this answer's own time says the link took the raise.
    const used = busy >= slots() - 1 && ms <= TOLERANCE * fastest;
    const gradient = Math.max(0.5, Math.min(1, (TOLERANCE * Math.max(fastest, 0.05)) / Math.max(recent, 0.05)));
    if (gradient === 1 && !used) return;
    const next = limit * gradient + Math.sqrt(limit);
    limit = Math.max(least, Math.min(cap, limit * (1 - LIMIT_WEIGHT) + next * LIMIT_WEIGHT));
  }

  async function acquire(): Promise<void> {
    while (hold !== null) await hold;
    if (inFlight < slots() && waiting.length === 0) {
      inFlight++;
      peakInFlight = Math.max(peakInFlight, inFlight);
      return;
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  }

  return {
    async run(exchange) {
      await acquire();
      const busy = inFlight;
      const started = now();
      let ok = false;
      try {
        const result = await exchange();
        ok = true;
        return result;
      } finally {
        // In flight when it was sent or when it came back, whichever the more: a burst's first
        // request went out alone but answered beside the others.
        const busyNow = Math.max(busy, inFlight);
        inFlight--;
        if (ok) learn(now() - started, busyNow);
        admit();
      }
    },
    backOff(retryAfterMs) {
      least = Math.max(1, Math.min(least, limit) / 2);
      limit = least;
      // Answers timed before the refusal say nothing of the link after it.
      timed = 0;
      if (retryAfterMs !== undefined && retryAfterMs > 0) {
        const waited: Promise<void> = options.sleep(retryAfterMs).then(() => {
          if (hold === waited) hold = null;
          admit();
        });
        hold = waited;
      }
    },
    stats: () => ({ limit: slots(), peakInFlight, fastestMs: fastest }),
  };
}
