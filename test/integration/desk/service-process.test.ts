// The seam between a host and the desk service in its own process (electron/core/desk/process),
// with a real forked service over a real embedded registry: a desk call and its event cross it,
// files cross as bytes (a bulk export rendered by the certificate pool), the test clock is moved
// through it, and a service process that dies is reported, its pending call fails with a clear
// error, it starts again on the same data, and after too many stops it is left stopped, saying so.
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskEvent, DeskMethod, DeskOutput } from '@shared/desk/api';
import type { DeskServiceProcess, ServiceLifecycle } from '@desk/process/host-side';
import { startDeskServiceChild } from '@desk/process/node-host';
import { makeDataDir } from '@test/support/registry';

let data: { dir: string; remove(): void };
let desk: DeskServiceProcess;
const events: DeskEvent[] = [];
const lifecycle: ServiceLifecycle[] = [];
const logs: string[] = [];

/** Resolves with the first item of `list` (now or later) that `match`es; `subscribe` tells of new ones. */
function waitFor<T>(list: T[], subscribe: (listener: (item: T) => void) => () => void, match: (item: T) => boolean): Promise<T> {
  const seen = list.find(match);
  if (seen) return Promise.resolve(seen);
  return new Promise((resolve) => {
    const off = subscribe((item) => {
      if (!match(item)) return;
      off();
      resolve(item);
    });
  });
}
const nextEvent = (match: (e: DeskEvent) => boolean) => waitFor(events, (l) => desk.onEvent(l), match);
const nextLifecycle = (type: ServiceLifecycle['type']) =>
  waitFor(
    lifecycle,
    (l) => desk.onLifecycle(l),
    (c) => c.type === type,
  );

async function ok<M extends DeskMethod>(method: M, input: unknown): Promise<DeskOutput<M>> {
  const result = await desk.dispatch(method, input);
  if (!result.ok) throw new Error(`${method}: ${result.error.code} ${result.error.message}`);
  return result.value as DeskOutput<M>;
}

beforeAll(async () => {
  data = makeDataDir('desk-service-process-');
  desk = await startDeskServiceChild({
    launch: { dataDir: data.dir, host: 'web', version: 'seam', testClock: true, keychain: 'service', autoSync: false },
    restarts: { max: 1, windowMs: 600_000 },
    log: (line) => logs.push(line),
  });
  desk.onEvent((e) => events.push(e));
  desk.onLifecycle((c) => lifecycle.push(c));
}, 180_000);

afterAll(async () => {
  await desk?.close();
  data?.remove();
});

describe('the desk service process', () => {
  it('runs in a process of its own and answers calls', async () => {
    expect(desk.pid).toBeGreaterThan(0);
    expect(desk.pid).not.toBe(process.pid);
    expect(await ok('system.info', {})).toEqual({ version: 'seam', host: 'web', dataDir: data.dir });
    // Bad input is refused by the service itself, across the seam.
    expect(await desk.dispatch('projects.search', { limit: -1 })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });

  it('carries a call and the events it causes: sync.run, then sync.finished', async () => {
    const finished = nextEvent((e) => e.type === 'sync.finished' || e.type === 'sync.failed');
    expect(await ok('sync.run', {})).toEqual({ started: true });
    expect((await finished).type).toBe('sync.finished');
    expect((await ok('projects.search', { scope: 'internal', limit: 1 })).total).toBeGreaterThan(0);
  }, 120_000);

  it('hands over a bulk export as bytes: a ZIP of certificates the pool rendered', async () => {
    const claimed = await ok('retirements.search', { filters: { claimed: true }, limit: 3 });
    const ids = claimed.rows.map((r) => r.id);
    expect(ids).toHaveLength(3);
    const file = await ok('retirements.certificates', { ids, format: 'zip' });
    const kept = (await desk.artifacts.get(file.handle))!;
    expect(kept.bytes).toBeInstanceOf(Uint8Array);
    expect(kept.bytes.byteLength).toBe(file.size);
    const entries = unzipSync(kept.bytes);
    expect(Object.keys(entries)).toEqual(ids.map((id) => `retirement-${id}.pdf`));
    for (const pdf of Object.values(entries)) expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe('%PDF-');
    desk.artifacts.release(file.handle);
    expect(await desk.artifacts.get(file.handle)).toBeUndefined();
  }, 120_000);

  it('moves the test clock through the seam', async () => {
    expect(await desk.advanceTestClock(90_000)).toBe(90_000);
  });

  it('reports a service process that dies, fails its pending call clearly, and starts it again', async () => {
    const before = desk.pid;
    const restarted = nextLifecycle('restarted');
    const reloaded = nextEvent((e) => e.type === 'connections.changed');
    const pending = desk.dispatch('system.info', {});
    process.kill(before, 'SIGKILL');
    expect(await pending).toMatchObject({
      ok: false,
      error: { code: 'internal', message: expect.stringMatching(/stopped unexpectedly \(signal SIGKILL\); it is starting again/) },
    });
    expect(lifecycle).toContainEqual({ type: 'crashed', reason: 'signal SIGKILL' });
    expect((await restarted).type).toBe('restarted');
    await reloaded;
    expect(desk.pid).not.toBe(before);
    expect(await ok('system.info', {})).toMatchObject({ version: 'seam' });
    // Same data folder: what was synced before is there.
    expect((await ok('projects.search', { scope: 'internal', limit: 1 })).total).toBeGreaterThan(0);
    expect(logs.some((line) => line.includes('stopped unexpectedly'))).toBe(true);
  }, 120_000);

  it('is left stopped after more stops than allowed, and every call says so', async () => {
    const stopped = nextLifecycle('stopped');
    process.kill(desk.pid, 'SIGKILL');
    expect(await stopped).toMatchObject({ reason: expect.stringMatching(/stopped 2 times .* restart Registry Desk/) });
    expect(await desk.dispatch('system.info', {})).toMatchObject({
      ok: false,
      error: { code: 'internal', message: expect.stringMatching(/was not started again/) },
    });
  });
});
