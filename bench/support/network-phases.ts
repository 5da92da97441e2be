// The network bench's phase log: the proxy hears every request the desk sends (its first line) and
// this sorts them into the sync's phases by path, so a run says when each phase asked its first and
// its last request. Beside the RTT-0 run, the extra time a phase ends later, divided by the RTT, is
// the round trips that phase put on the critical path: a count that a loaded machine does not move
// much, where the walls it adds to do.

/** A phase's requests: when its first and last were sent (ms after the run's first request), how many. */
export interface PhaseSpan {
  firstMs: number;
  lastMs: number;
  requests: number;
}

/** The sync's phases, by the paths they ask (first match wins), in the order a first sync runs them. */
const PHASES: readonly [name: string, path: RegExp][] = [
  ['grant', /^\/app\//],
  ['history', /^\/transparency\//],
  ['project list', /^\/projects\?/],
  ['internal list', /^\/projects\/internal\?/],
  ['details', /^\/projects\/internal\/[^/?]+$/],
  ['credits', /^\/carbonCredits\/projects\//],
  ['inventories', /^\/carbonCredits\/icr\/inventory\//],
  ['retirements', /^\/v1\/retirements\?/],
  ['warehouses', /^\/operator\/v1\/warehouse\//],
  ['organizations', /organizations\//],
];

export const PHASE_NAMES = [...PHASES.map(([name]) => name), 'other'];

/** The phase a request's path (and query) belongs to. */
export function phaseOf(path: string): string {
  return PHASES.find(([, pattern]) => pattern.test(path))?.[0] ?? 'other';
}

/** Collects a run's requests (hand `hear` to the proxy's onRequest) and sums them up by phase. */
export function phaseLog() {
  const heard: { at: number; phase: string }[] = [];
  return {
    /** Hears a request's first line, sent at `at` (performance.now(); when heard, if not given). */
    hear(line: string, at = performance.now()) {
      heard.push({ at, phase: phaseOf(line.split(' ')[1] ?? '') });
    },
    /** The phases' spans, up to `untilMs` (performance.now() when the first sync ended: re-syncs are left out). */
    spans(untilMs: number): Map<string, PhaseSpan> {
      const spans = new Map<string, PhaseSpan>();
      const start = heard[0]?.at ?? 0;
      for (const { at, phase } of heard) {
        if (at > untilMs) break;
        const span = spans.get(phase);
        if (span) {
          span.lastMs = at - start;
          span.requests++;
        } else spans.set(phase, { firstMs: at - start, lastMs: at - start, requests: 1 });
      }
      return spans;
    },
  };
}

/**
 * A phase's own time on the critical path: from the end of the phases before it (their last request,
 * or the run's start) to its own last request. Phases that overlap share what they overlap.
 */
function ownMs(spans: Map<string, PhaseSpan>, name: string): number {
  let before = 0;
  for (const other of PHASE_NAMES) {
    if (other === name) break;
    const span = spans.get(other);
    if (span && other !== 'grant') before = Math.max(before, span.lastMs);
  }
  return Math.max(0, (spans.get(name)?.lastMs ?? before) - before);
}

/**
 * Lines for the log: each phase's first and last request, its own time (ownMs) and, beside the RTT-0
 * run's, the round trips that time grew by (its added time over the RTT).
 */
export function phaseLines(linkName: string, rttMs: number, spans: Map<string, PhaseSpan>, base?: Map<string, PhaseSpan>): string[] {
  const lines = [`phases, ${linkName}: first .. last request (ms after the run's first), requests, own time`];
  for (const name of PHASE_NAMES) {
    const span = spans.get(name);
    if (!span) continue;
    // The grant's requests run beside the history check and, for an installation, come late: no time of their own.
    if (name === 'grant') {
      lines.push(
        `  ${name.padEnd(14)} ${span.firstMs.toFixed(0).padStart(6)} .. ${span.lastMs.toFixed(0).padStart(6)} ${String(span.requests).padStart(5)}`,
      );
      continue;
    }
    const own = ownMs(spans, name);
    const added = base?.has(name) && rttMs > 0 ? ` (${((own - ownMs(base, name)) / rttMs).toFixed(1)} RTT more than at RTT 0)` : '';
    lines.push(
      `  ${name.padEnd(14)} ${span.firstMs.toFixed(0).padStart(6)} .. ${span.lastMs.toFixed(0).padStart(6)} ${String(span.requests).padStart(5)}  ${own.toFixed(0).padStart(6)} ms${added}`,
    );
  }
  return lines;
}
