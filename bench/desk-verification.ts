// The desk's own cost of verifying its registry's history (issue 29, part "the desk verifies"): a
// desk syncing a real registry server whose log holds LOG_SIZE entries. The first sync verifies the
// whole log from 0 (its time is reported); then each re-sync follows RESYNC_RETIREMENTS new
// retirements and a new checkpoint, alternately with verification and without it (the same cache,
// the same engine settings), once the registry signed a checkpoint covering them. The figures: the check's own time inside a re-sync (begin + end, the
// target < 50 ms) and the re-sync's wall time with and without it.
import { appendAudit } from '../electron/core/registry/audit';
import { signCheckpoint } from '../electron/core/registry/transparency/checkpoints';
import { createSyncEngine } from '../electron/core/desk/sync/engine';
import { createHistoryCheck, type HistoryCheck } from '../electron/core/desk/verification/history-check';
import { historyStatus } from '../electron/core/desk/verification/status';
import { addVolume, startDeskWorld } from '../test/support/desk-support';
import type { BenchFigure } from './types';

const LOG_SIZE = Number(process.env.BENCH_TLOG_DESK_SIZE ?? 20_000);
const ROUNDS = Number(process.env.BENCH_TLOG_DESK_ROUNDS ?? 8);
const RESYNC_RETIREMENTS = 50;
const SUITE = 'transparency';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A history check that adds the time it takes to `spent`. */
function timed(inner: HistoryCheck, spent: { ms: number }): HistoryCheck {
  return {
    async begin() {
      const t0 = performance.now();
      try {
        await inner.begin();
      } finally {
        spent.ms += performance.now() - t0;
      }
    },
    // beside the feed's download: the time from the pass asking for the outcome to its being kept
    beside() {
      const started = inner.beside();
      return {
        async keep() {
          const t0 = performance.now();
          try {
            await started.keep();
          } finally {
            spent.ms += performance.now() - t0;
          }
        },
        threw: (error) => started.threw(error),
        // the pieces the check does in the load's idle turns before its keep are its time too
        aheadOfKeep() {
          const piece = started.aheadOfKeep();
          if (!piece) return null;
          return () => {
            const t0 = performance.now();
            try {
              piece();
            } finally {
              spent.ms += performance.now() - t0;
            }
          };
        },
      };
    },
    keepFailure: (failure) => inner.keepFailure(failure),
    end() {
      const t0 = performance.now();
      try {
        return inner.end();
      } finally {
        spent.ms += performance.now() - t0;
      }
    },
  };
}

export async function deskVerificationFigures(): Promise<BenchFigure[]> {
  const world = await startDeskWorld({
    retirements: 200,
    setup: (r) =>
      r.db.transaction(() => {
        for (let i = 0; i < LOG_SIZE; i++)
          appendAudit(r, { operatorId: null, actor: 'bench', action: 'x', targetIds: [], outcome: 'succeeded', detail: { i } });
      }),
  });
  const spent = { ms: 0 };
  const common = { client: world.client, cache: world.cache, clock: world.t.clock, installations: () => world.installations };
  const verifying = createSyncEngine({
    ...common,
    history: timed(createHistoryCheck({ baseUrl: world.t.url, cache: world.cache, clock: world.t.clock }), spent),
  });
  const plain = createSyncEngine({ ...common, history: false });
  try {
    const firstStarted = performance.now();
    if (!(await verifying.run()).ok) throw new Error(`the first sync failed: ${verifying.status().lastError}`);
    const first = { wall: performance.now() - firstStarted, check: spent.ms, entries: historyStatus(world.cache.db).entries ?? 0 };
    const walls = { with: [] as number[], without: [] as number[] };
    const checks: number[] = [];
    for (let round = 0; round < ROUNDS * 2; round++) {
      const withCheck = round % 2 === 0;
      addVolume(world.t.registry, world.f, { retirements: RESYNC_RETIREMENTS });
      world.t.clock.advance(5_000);
      // what the registry's checkpoint timer does within 3 s of a write (the world runs without it)
      signCheckpoint(world.t.registry);
      spent.ms = 0;
      const t0 = performance.now();
      const result = await (withCheck ? verifying : plain).run();
      if (!result.ok) throw new Error(`a re-sync failed: ${(withCheck ? verifying : plain).status().lastError}`);
      (withCheck ? walls.with : walls.without).push(performance.now() - t0);
      if (withCheck) checks.push(spent.ms);
    }
    if (historyStatus(world.cache.db).state !== 'verified') throw new Error('the history did not verify');
    const check = median(checks);
    const [withMs, withoutMs] = [median(walls.with), median(walls.without)];
    return [
      { suite: SUITE, name: `desk: first sync's history check, ${first.entries} entries from 0`, value: first.check, unit: 'ms' },
      { suite: SUITE, name: `desk: first sync wall, with the check`, value: first.wall, unit: 'ms' },
      {
        suite: SUITE,
        name: `desk: the check's own time per re-sync (${RESYNC_RETIREMENTS} new retirements), median`,
        value: check,
        unit: 'ms',
        target: '< 50 ms',
        pass: check < 50,
      },
      {
        suite: SUITE,
        name: 'desk: re-sync wall with the check / without, medians',
        value: withMs,
        unit: 'ms',
        floor: withoutMs,
        ratio: withMs / withoutMs,
      },
    ];
  } finally {
    await verifying.close();
    await plain.close();
    await world.close();
  }
}
