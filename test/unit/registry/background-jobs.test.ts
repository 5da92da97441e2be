// No background job can take a serving process down: every service the server starts
// (BACKGROUND_SERVICES) runs its ticks against a database that fails every statement (the SQLite
// connection closed under it, as a database that went away), and none may throw out of a timer. Each
// failure episode is logged once, not once per tick.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openRegistry } from '@registry/open';
import { BACKGROUND_SERVICES } from '@registry/http/server';
import { repeatSafely } from '@registry/background';
import { makeDataDir } from '@test/support/registry';
import { ManualClock } from '@platform/clock';
import { requestHash, storeAnswer } from '@registry/idempotency';
import { IDEMPOTENCY_WINDOW_MS } from '@shared/registry/vocabulary';
import { createTestOperator } from '@test/support/operators';

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

  it('the served registry deletes Idempotency-Keys past their window (within 10 minutes), and keeps live ones', async () => {
    vi.useFakeTimers();
    const data = makeDataDir('idempotency-purge-');
    cleanups.push(data.remove);
    const clock = new ManualClock(Date.UTC(2026, 10, 28));
    const registry = openRegistry({ dataDir: data.dir, clock });
    cleanups.push(() => registry.close());
    const operator = createTestOperator(registry, 'administrator', 1);
    const store = (key: string) =>
      registry.db.transaction(() => storeAnswer(registry, operator.id, key, requestHash('POST', '/x', {}), { status: 201, body: { key } }));
    const keys = () => (registry.db.prepare('SELECT key FROM idempotency_keys ORDER BY key').all() as { key: string }[]).map((r) => r.key);
    store('old');
    const running = BACKGROUND_SERVICES.map((s) => s.start(registry, { log: () => undefined }));
    clock.advance(IDEMPOTENCY_WINDOW_MS - 60_000);
    store('young');
    // the first tick ran at start, the next one 10 minutes on: 'old' expired a minute before it
    await vi.advanceTimersByTimeAsync(9 * 60_000);
    expect(keys()).toEqual(['old', 'young']);
    clock.advance(10 * 60_000);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(keys()).toEqual(['young']);
    for (const r of running) await r.stop();
  });

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
    await job.stop();
    expect(lines).toEqual([
      'job: failed: database unreachable (retrying; logged again only once it works)',
      'job: works again',
      'job: failed: database unreachable (retrying; logged again only once it works)',
    ]);
  });
});
