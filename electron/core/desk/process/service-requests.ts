// The host's requests to a started desk service, answered (service-side.ts): each `reply`s with its
// value or fails with the desk's error; `close` closes the service and leaves the process.
import type { AdjustableClock } from '@platform/clock';
import { toDeskError } from '@desk/errors';
import type { DeskService } from '@desk/service';
import type { HostToService, ServiceToHost } from './protocol';

/** What a request's answer needs of the host's port (service-side.ts, HostPort). */
interface Port {
  send(message: ServiceToHost): void;
  exit(code: number): void;
}

/** A request to the started service (not `start`, not a keychain answer). */
export type ServiceRequest = Exclude<HostToService, { type: 'start' | 'keychain.reply' }>;

export const reply = (port: Port, id: number, value: unknown) => port.send({ type: 'reply', id, ok: true, value });
export const fail = (port: Port, id: number, error: unknown) => port.send({ type: 'reply', id, ok: false, error: toDeskError(error) });

/** Answers one request; `clock` is the test clock the service was started with, if any. */
export async function answerRequest(port: Port, desk: DeskService, clock: AdjustableClock | undefined, message: ServiceRequest) {
  try {
    switch (message.type) {
      case 'call':
        return reply(port, message.id, await desk.dispatch(message.method, message.input));
      case 'artifact.get':
        return reply(port, message.id, desk.artifacts.get(message.handle) ?? null);
      case 'artifact.release':
        return desk.artifacts.release(message.handle);
      case 'key.put':
        return reply(port, message.id, desk.keyImports.put(message.pem, message.fileName));
      case 'window.get':
        return reply(port, message.id, desk.settings.get().window);
      case 'window.set':
        desk.settings.update({ window: message.window });
        return reply(port, message.id, null);
      case 'clock.advance':
        if (!clock) throw new Error('the desk was not started with --test-clock');
        clock.advance(message.ms);
        return reply(port, message.id, clock.offset);
      case 'close':
        await desk.close();
        reply(port, message.id, null);
        port.exit(0);
        return;
    }
  } catch (error) {
    if ('id' in message) fail(port, message.id, error);
  }
}
