// The delaying proxy's own lag, by the sync's phase: how much later than due it passed each chunk
// on, each way. A real link delivers on time whatever the registry is doing; a proxy whose timers
// wait behind other work adds that wait to the link's latency, so this says how faithful the run's
// link was.
import type { LinkLag } from '@test/support/delaying-proxy';
import { PHASE_NAMES, phaseOf } from './network-phases';
import { percentile } from './percentile';

function summary(lates: number[]): string {
  if (lates.length === 0) return '-';
  const sorted = [...lates].sort((a, b) => a - b);
  const mean = lates.reduce((sum, late) => sum + late, 0) / lates.length;
  return `${lates.length} chunks late mean ${mean.toFixed(1)}, p50 ${percentile(sorted, 50).toFixed(1)}, p90 ${percentile(sorted, 90).toFixed(1)}, max ${sorted.at(-1)!.toFixed(1)} ms`;
}

/** Lines for the log: each phase's chunks up and down and how late they left, up to `untilMs`. */
export function lagLines(linkName: string, lag: LinkLag, untilMs: number): string[] {
  const byPhase = new Map<string, { up: number[]; down: number[] }>();
  for (const chunk of lag.chunks) {
    if (chunk.atMs > untilMs) continue;
    const phase = phaseOf(chunk.request.split(' ')[1] ?? '');
    const lates = byPhase.get(phase) ?? { up: [], down: [] };
    (chunk.up ? lates.up : lates.down).push(chunk.lateMs);
    byPhase.set(phase, lates);
  }
  const { p50, p99, max } = lag.loopDelayMs;
  const lines = [
    `the proxy's lag, ${linkName}: its event loop's delay p50 ${p50.toFixed(1)}, p99 ${p99.toFixed(1)}, max ${max.toFixed(1)} ms`,
  ];
  for (const name of PHASE_NAMES) {
    const lates = byPhase.get(name);
    if (lates) lines.push(`  ${name.padEnd(14)} up: ${summary(lates.up)}; down: ${summary(lates.down)}`);
  }
  return lines;
}
