// The registry reachability probe, driven by hand-held timers (no sleeping, no sockets): it notices
// loss and return on its own, backs off while offline, and stops cleanly.
import { describe, expect, it } from 'vitest';
import { startReachabilityProbe, type ProbeTimers } from '@desk/reachability-probe';

function manualTimers() {
  const pending = new Map<number, { callback: () => void; ms: number }>();
  let next = 1;
  const timers: ProbeTimers = {
    setTimeout(callback, ms) {
      const id = next++;
      pending.set(id, { callback, ms });
      return id;
    },
    clearTimeout(handle) {
      pending.delete(handle as number);
    },
  };
  return {
    timers,
    pending: () => [...pending.values()].map((p) => p.ms),
    /** Fires the one pending timer and lets the probe's promise settle. */
    async fire() {
      const [[id, entry]] = [...pending.entries()] as [[number, { callback: () => void; ms: number }]];
      pending.delete(id);
      entry.callback();
      for (let i = 0; i < 5; i++) await Promise.resolve();
    },
  };
}

describe('the reachability probe', () => {
  it('reports loss and return by itself, backing off 2 s, 4 s, 8 s … up to 60 s while offline', async () => {
    const clock = manualTimers();
    let reachable = true;
    let online = true;
    const reports: boolean[] = [];
    const probe = startReachabilityProbe({
      probe: () => Promise.resolve(reachable),
      report: (r) => {
        reports.push(r);
        online = r;
      },
      isOnline: () => online,
      timers: clock.timers,
    });
    expect(clock.pending()).toEqual([10_000]);
    await clock.fire();
    expect(reports).toEqual([true]);
    expect(probe.nextDelayMs).toBe(10_000);

    reachable = false;
    const delays: number[] = [];
    for (let i = 0; i < 7; i++) {
      await clock.fire();
      delays.push(probe.nextDelayMs!);
    }
    expect(reports.slice(1).every((r) => !r)).toBe(true);
    expect(delays).toEqual([2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000]);

    reachable = true;
    await clock.fire();
    expect(reports.at(-1)).toBe(true);
    expect(probe.nextDelayMs).toBe(10_000);
    // Offline again: the back-off starts over from 2 s.
    reachable = false;
    await clock.fire();
    expect(probe.nextDelayMs).toBe(2_000);

    probe.stop();
    expect(clock.pending()).toEqual([]);
    expect(probe.nextDelayMs).toBeNull();
  });

  it('treats a probe that throws as unreachable and starts fast when already offline', async () => {
    const clock = manualTimers();
    const reports: boolean[] = [];
    startReachabilityProbe({
      probe: () => Promise.reject(new Error('boom')),
      report: (r) => reports.push(r),
      isOnline: () => false,
      timers: clock.timers,
    });
    expect(clock.pending()).toEqual([2_000]);
    await clock.fire();
    expect(reports).toEqual([false]);
    expect(clock.pending()).toEqual([2_000]);
  });
});
