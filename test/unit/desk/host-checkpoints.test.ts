// Who checkpoints a first sync's load (desk/sync/worker/host-checkpoints.ts): the sync worker itself
// when it is idle once no run is left, a worker of its own when the sync worker has ended or runs
// again; none before the runs end. The workers here are real threads speaking the host's protocol:
// a sync worker that answers 'checkpoint-here' (or ends instead), a checkpointer that ends.
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { hostCheckpoints } from '@desk/sync/worker/host-checkpoints';

const SYNC_WORKER = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', (m) => {
  if (m.type === 'checkpoint-here') parentPort.postMessage({ type: 'checkpointed', id: m.id });
  if (m.type === 'checkpoint-done') parentPort.postMessage({ type: 'heard-done', id: m.id });
  if (m.type === 'ping') parentPort.postMessage({ type: 'pong', id: m.id });
  if (m.type === 'end') process.exit(0);
});`;

const started: Worker[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((w) => w.terminate()));
});

function world() {
  const sync = new Worker(SYNC_WORKER, { eval: true });
  started.push(sync);
  const heard: { type: string; id: number }[] = [];
  let current: Worker | null = sync;
  sync.once('exit', () => (current = null));
  let runs = 0;
  let checkpointers = 0;
  const checkpoints = hostCheckpoints(
    () => {
      checkpointers++;
      const checkpointer = new Worker('setTimeout(() => {}, 20)', { eval: true });
      started.push(checkpointer);
      return checkpointer;
    },
    () => runs > 0,
    () => current,
  );
  sync.on('message', (m: { type: string; id: number }) => {
    heard.push(m);
    if (m.type === 'checkpointed') checkpoints.madeHere(m.id);
  });
  return {
    sync,
    heard,
    checkpoints,
    checkpointers: () => checkpointers,
    setRuns: (n: number) => void (runs = n),
  };
}

describe('checkpoints of a first load, for the sync worker host', () => {
  it('are made by the idle sync worker itself once no run is left, and none before', async () => {
    const w = world();
    w.setRuns(1);
    w.checkpoints.request(w.sync, 1);
    // (the worker answers in order: a checkpoint asked of it would have been answered before this)
    w.sync.postMessage({ type: 'ping', id: 0 });
    await expect.poll(() => w.heard).toEqual([{ type: 'pong', id: 0 }]);
    w.setRuns(0);
    w.checkpoints.startAfterRuns();
    await w.checkpoints.ended();
    expect(w.heard).toEqual([
      { type: 'pong', id: 0 },
      { type: 'checkpointed', id: 1 },
    ]);
    expect(w.checkpointers()).toBe(0);
  });

  it('are made by a worker of their own when the sync worker has ended, which then hears they are done', async () => {
    const w = world();
    w.setRuns(1);
    w.checkpoints.request(w.sync, 2);
    const gone = new Promise((resolve) => w.sync.once('exit', resolve));
    w.sync.postMessage({ type: 'end' });
    await gone;
    w.setRuns(0);
    w.checkpoints.startAfterRuns();
    await w.checkpoints.ended();
    expect(w.checkpointers()).toBe(1);
  });

  it('are made by a worker of their own when runs are still going (the desk closing in the middle of one)', async () => {
    const w = world();
    w.setRuns(1);
    w.checkpoints.request(w.sync, 3);
    w.checkpoints.startAfterRuns();
    await w.checkpoints.ended();
    expect(w.checkpointers()).toBe(1);
    await expect.poll(() => w.heard).toEqual([{ type: 'heard-done', id: 3 }]);
  });

  it('count as ended when the sync worker asked to make one ends without answering', async () => {
    const w = world();
    const silent = new Worker(`require('node:worker_threads').parentPort.on('message', () => process.exit(0))`, { eval: true });
    started.push(silent);
    const checkpoints = hostCheckpoints(
      () => {
        throw new Error('no checkpointer expected');
      },
      () => false,
      () => silent,
    );
    checkpoints.request(silent, 4);
    await checkpoints.ended();
    expect(w.heard).toEqual([]);
  });
});
