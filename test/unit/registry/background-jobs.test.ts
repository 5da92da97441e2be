// No background job can take a serving process down: every service the server starts
// (BACKGROUND_SERVICES) runs its ticks against a database that fails every statement (the SQLite
// connection closed under it, as a database that went away), and none may throw out of a timer. Each
// failure episode is logged once, not once per tick.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openRegistry } from '../../../electron/core/registry/open';
import { BACKGROUND_SERVICES } from '../../../electron/core/registry/http/server';
import { repeatSafely } from '../../../electron/core/registry/background';
import { makeDataDir } from '../../support/registry';

const HOUR = 60 * 60 * 1000;
const cleanups: (() => void)[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe('background jobs', () => {
  it.each(BACKGROUND_SERVICES.map((s) => [s.name, s] as const))(
    '%s: an hour of failing ticks, no throw, one line per job',
    async (_name, service) => {
      vi.useFakeTimers();
      const data = makeDataDir('background-jobs-');
      const registry = openRegistry({ dataDir: data.dir });
      cleanups.push(data.remove);
      const lines: string[] = [];
      const running = service.start(registry, { log: (line) => lines.push(line) });
      registry.close(); // every statement from now on throws
      // a tick that throws out of its timer makes the fake clock rethrow it here
      await vi.advanceTimersByTimeAsync(HOUR);
      expect(lines.length).toBeGreaterThan(0);
      // one line per failing job of the service (the queue worker has two: its queue and its sweep)
      expect(lines.length).toBeLessThanOrEqual(2);
      await running.stop();
    },
  );

  it('repeatSafely logs the end of an episode once, and a new episode again', async () => {
    vi.useFakeTimers();
    const lines: string[] = [];
    let failing = true;
    const job = repeatSafely(
      'job',
      1000,
      () => {
        if (failing) throw new Error('database unreachable');
      },
      { log: (line) => lines.push(line) },
    );
    await vi.advanceTimersByTimeAsync(10_000);
    failing = false;
    await vi.advanceTimersByTimeAsync(10_000);
    failing = true;
    await vi.advanceTimersByTimeAsync(10_000);
    job.stop();
    expect(lines).toEqual([
      'job: failed: database unreachable (retrying; logged again only once it works)',
      'job: works again',
      'job: failed: database unreachable (retrying; logged again only once it works)',
    ]);
  });
});
