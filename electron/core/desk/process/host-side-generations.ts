// The service process's lifecycle as its host (host-side.ts) runs it: each start a generation, an
// unexpected exit restarted (within the restarts' limit), and close.
import { zodMessages } from '@platform/zod-messages';
import { DeskFailure } from '@desk/errors';
import type { ServiceChannel } from './host-side-api';
import { onMessage } from './host-side-messages';
import type { Generation, ServiceHost } from './host-side-state';
import { serviceToHost } from './protocol';

/** Starts a service process: ready once it says so, failed when it ends or does not start in time. */
export function launch(host: ServiceHost): Generation {
  const { options, log } = host;
  const channel = options.spawn();
  let resolveExited!: () => void;
  const exited = new Promise<void>((resolve) => (resolveExited = resolve));
  const ready = new Promise<number>((resolve, reject) => {
    let settled = false;
    const settle = (action: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      action();
    };
    const timeoutMs = options.startTimeoutMs ?? 180_000;
    const timer = setTimeout(() => {
      settle(() => reject(new Error(`the desk service did not start within ${Math.round(timeoutMs / 1000)} s`)));
      channel.kill();
    }, timeoutMs);
    const started = { resolve: (id: number) => settle(() => resolve(id)), reject: (e: Error) => settle(() => reject(e)) };
    channel.onMessage((raw) => {
      const parsed = serviceToHost.safeParse(raw);
      if (!parsed.success) {
        log(`dropped a malformed message from the desk service: ${zodMessages(parsed.error.issues).join('; ')}`);
        return;
      }
      onMessage(host, channel, parsed.data, started);
    });
    channel.onExit((reason) => {
      started.reject(new Error(`the desk service stopped before it was ready (${reason})`));
      resolveExited();
      onExit(host, channel, reason);
    });
  });
  ready.then(
    (id) => (host.pid = id),
    () => {},
  );
  channel.send({ type: 'start', launch: options.launch });
  return { channel, ready, exited };
}

/** The process ended: the calls it owed fail, and unless closing it is started again (or, too often, not). */
function onExit(host: ServiceHost, channel: ServiceChannel, reason: string) {
  const { pending, log, lifecycle, clock, crashes, restarts, hub } = host;
  const failure = host.closing
    ? new DeskFailure('internal', 'The desk is closing')
    : new DeskFailure('internal', `The desk service stopped unexpectedly (${reason}); it is starting again: try once more`);
  for (const [id, call] of pending) {
    if (call.channel !== channel) continue;
    pending.delete(id);
    call.reject(failure);
  }
  if (host.closing || host.current.channel !== channel) return;
  log(`the desk service stopped unexpectedly (${reason})`);
  lifecycle.publish({ type: 'crashed', reason });
  const now = clock.now();
  crashes.push(now);
  while (crashes.length > 0 && crashes[0]! <= now - restarts.windowMs) crashes.shift();
  if (crashes.length > restarts.max) {
    host.stopped = `The desk service stopped ${crashes.length} times within ${Math.round(restarts.windowMs / 1000)} s (last: ${reason}) and was not started again: restart Registry Desk`;
    log(host.stopped);
    lifecycle.publish({ type: 'stopped', reason: host.stopped });
    return;
  }
  host.current = launch(host);
  host.current.ready.then(
    (newPid) => {
      log(`the desk service started again (process ${newPid})`);
      lifecycle.publish({ type: 'restarted', pid: newPid });
      // The page re-reads its connections (and their key and sync status).
      hub.publish({ type: 'connections.changed' });
    },
    (error: unknown) => log(`the desk service could not start again: ${(error as Error).message}`),
  );
}

/** Asks the process to close its databases and end; one that does not in time is ended. */
export async function closeService(host: ServiceHost): Promise<void> {
  const { pending, log, options } = host;
  if (host.closing) return host.current.exited;
  const generation = host.current;
  const wasStopped = host.stopped !== undefined;
  host.closing = true;
  if (wasStopped) return;
  const id = host.nextId++;
  pending.set(id, { channel: generation.channel, resolve: () => {}, reject: () => {} });
  generation.channel.send({ type: 'close', id });
  const timer = setTimeout(() => {
    log('the desk service did not close in time: ending it');
    generation.channel.kill();
  }, options.closeTimeoutMs ?? 15_000);
  await generation.exited;
  clearTimeout(timer);
}
