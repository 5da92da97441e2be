// The seed path's first sync counted in round trips rather than timed: the desk's engine in this
// process, its client's answers held until every request in flight has been answered
// (test/support/round-trip-waves.ts), the gate's clock moved 150 ms per round trip so it opens as
// over a long link. What it counts is the round trips on the critical path when neither end's CPU
// costs anything: what a link's latency multiplies, and what a loaded machine does not change.
// The history check (its own transport) and the tokens are not counted.
import { systemClock } from '@platform/clock';
import { openDeskCache } from '@desk/cache';
import { createRegistryClient } from '@desk/client/registry-client';
import { createSyncEngine } from '@desk/sync/engine';
import { roundTripWaves } from '@test/support/round-trip-waves';
import { jobTokens, type ChildJob } from './sync-bench-job';
import { phaseOf, type PhaseSpan } from './network-phases';

/** A round trip's time on the gate's clock: the bench's longest link. */
const ROUND_TRIP_MS = 150;

export interface RoundTripCount {
  /** Round trips from the first request to the last answer. */
  total: number;
  /** Each phase's first and last request: the round trip (from 0) each was sent in, in place of ms. */
  phases: Map<string, PhaseSpan>;
  ok: boolean;
}

export async function seedRoundTrips(job: ChildJob): Promise<RoundTripCount> {
  const waves = roundTripWaves();
  const client = createRegistryClient({
    baseUrl: job.url,
    tokens: jobTokens(job),
    clock: systemClock,
    fetch: waves.fetch,
    // Asked as of a registry elsewhere, as the bench's proxied runs are.
    compressed: true,
    gate: { now: () => waves.rounds() * ROUND_TRIP_MS },
  });
  const cache = openDeskCache(job.cacheFile, { clock: systemClock });
  const engine = createSyncEngine({
    client,
    cache,
    clock: systemClock,
    installations: () => job.installations,
    tuning: { feed: false },
    history: false,
  });
  try {
    const result = await waves.drive(engine.run());
    if (!result.ok) console.log('round-trip count failed:', JSON.stringify(result.results));
    // Phases by the round trip each request was sent in.
    const phases = new Map<string, PhaseSpan>();
    for (const [path, round] of waves.sentIn) {
      const name = phaseOf(path);
      const span = phases.get(name);
      if (span) {
        span.firstMs = Math.min(span.firstMs, round);
        span.lastMs = Math.max(span.lastMs, round);
        span.requests++;
      } else phases.set(name, { firstMs: round, lastMs: round, requests: 1 });
    }
    return { total: waves.rounds(), phases, ok: result.ok };
  } finally {
    await engine.close();
    cache.close();
  }
}
