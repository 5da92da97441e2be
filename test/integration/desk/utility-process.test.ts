// The desk service's utilityProcess path (electron/main/utility-channel.ts on the host,
// process.parentPort in electron/core/desk/process/entry.ts), run under Node through a stand-in
// with utilityProcess's semantics (test/support/utility-process.ts): the child has no process.send,
// so the entry must take its parentPort branch, which the child_process.fork tests never reach.
import { once } from 'node:events';
import { MessageChannel } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { startDeskServiceProcess, type DeskServiceProcess, type ServiceLifecycle } from '@desk/process/host-side';
import { SOURCE_ENTRY } from '@desk/process/node-host';
import { utilityChannel } from '@main/utility-channel';
import { makeDataDir } from '@test/support/registry';
import { standInUtilityProcess } from '@test/support/utility-process';

const ECHO = new URL('../../support/fixtures/utility-echo.mjs', import.meta.url).pathname;

describe('the utilityProcess stand-in', () => {
  it('gives the child parentPort and no process.send, and clones messages both ways', async () => {
    const child = standInUtilityProcess.fork(ECHO, ['--flag']);
    await once(child, 'spawn');
    const payload = { bytes: new Uint8Array([1, 2, 3]), when: new Date(0), map: new Map([['a', 1]]) };
    child.postMessage({ type: 'hello', payload });
    const [answer] = (await once(child, 'message')) as [{ hasSend: string; argv: string[]; payload: typeof payload }];
    expect(answer.hasSend).toBe('undefined');
    expect(answer.argv).toEqual(['--flag']);
    expect(answer.payload.bytes).toEqual(new Uint8Array([1, 2, 3]));
    expect(answer.payload.when).toEqual(new Date(0));
    expect(answer.payload.map.get('a')).toBe(1);
    child.postMessage({ type: 'exit', code: 3 });
    expect(await once(child, 'exit')).toEqual([3]);
    expect(() => child.postMessage({ type: 'hello' })).toThrow(/exited/);
    expect(child.kill()).toBe(false);
  });

  it('transfers a MessagePort that keeps working across the process, and refuses anything else', async () => {
    const child = standInUtilityProcess.fork(ECHO);
    const { port1, port2 } = new MessageChannel();
    expect(() => child.postMessage({ type: 'port' }, [{} as never])).toThrow(/only MessagePorts/);
    child.postMessage({ type: 'port' }, [port2]);
    expect(await once(child, 'message')).toEqual([{ ports: 1 }]);
    port1.postMessage(21);
    expect(await once(port1, 'message')).toEqual([42]);
    port1.close();
    expect(child.kill()).toBe(true);
    // Killed (SIGTERM): the exit code is the signal's number, as Electron reports it on POSIX.
    expect(await once(child, 'exit')).toEqual([15]);
  });
});

describe('the desk service in a utility process', () => {
  const data = makeDataDir('desk-utility-');
  const lifecycle: ServiceLifecycle[] = [];
  const exits: string[] = [];
  let desk: DeskServiceProcess | undefined;
  afterAll(async () => {
    await desk?.close();
    data.remove();
  });

  it('starts through parentPort, answers calls, restarts after a kill and exits 0 on close', async () => {
    desk = await startDeskServiceProcess({
      launch: { dataDir: data.dir, host: 'electron', version: 'utility', testClock: false, keychain: 'service', autoSync: false },
      spawn: () => {
        const channel = utilityChannel(standInUtilityProcess.fork(SOURCE_ENTRY));
        channel.onExit((reason) => exits.push(reason));
        return channel;
      },
      restarts: { max: 1, windowMs: 600_000 },
    });
    desk.onLifecycle((change) => lifecycle.push(change));
    expect(desk.pid).not.toBe(process.pid);
    expect(await desk.dispatch('system.info', {})).toEqual({
      ok: true,
      value: { version: 'utility', host: 'electron', dataDir: data.dir },
    });
    expect(await desk.dispatch('projects.search', { limit: -1 })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });

    const restarted = new Promise<void>((resolve) => desk!.onLifecycle((change) => change.type === 'restarted' && resolve()));
    process.kill(desk.pid, 'SIGKILL');
    await restarted;
    expect(lifecycle).toContainEqual({ type: 'crashed', reason: 'exit code 9' });
    expect(await desk.dispatch('system.info', {})).toMatchObject({ ok: true });

    await desk.close();
    desk = undefined;
    expect(exits).toEqual(['exit code 9', 'exit code 0']);
  }, 120_000);
});
