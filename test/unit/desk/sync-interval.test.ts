// Background sync on an interval (shared by the in-thread engine and the worker host).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { syncInterval } from '@desk/sync/interval';

afterEach(() => {
  vi.useRealTimers();
});

describe('sync interval', () => {
  it('runs now and then every interval until stopped; a new start replaces the old interval', () => {
    vi.useFakeTimers();
    const run = vi.fn(async () => {});
    const interval = syncInterval(run);
    interval.start(60_000);
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(180_000);
    expect(run).toHaveBeenCalledTimes(4);
    interval.start(10_000, { immediately: false });
    vi.advanceTimersByTime(60_000);
    // Only the new interval ticks: six runs in a minute, none from the old one.
    expect(run).toHaveBeenCalledTimes(10);
    interval.stop();
    vi.advanceTimersByTime(600_000);
    expect(run).toHaveBeenCalledTimes(10);
  });

  it('refuses an interval under a second and keeps a failed run from escaping', async () => {
    vi.useFakeTimers();
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const interval = syncInterval(async () => {
        throw new Error('offline');
      });
      expect(() => interval.start(999)).toThrow('at least 1 second');
      expect(() => interval.start(Number.NaN)).toThrow('at least 1 second');
      interval.start(1000);
      await vi.advanceTimersByTimeAsync(3000);
      interval.stop();
      vi.useRealTimers();
      // Node reports unhandled rejections after each turn of the event loop: one full turn is enough.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
