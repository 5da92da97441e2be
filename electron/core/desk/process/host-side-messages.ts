// The service process's messages to its host (host-side.ts), each routed to what it answers.
import { DeskFailure } from '@desk/errors';
import { KeyReadError } from '@desk/key-vault';
import type { ServiceChannel } from './host-side-api';
import type { ServiceHost } from './host-side-state';
import type { KeychainOp, ServiceToHost, WireError } from './protocol';

function wireErrorOf(error: unknown): WireError {
  const message = error instanceof Error ? error.message : String(error);
  return error instanceof KeyReadError ? { message, reason: error.reason } : { message };
}

function answerKeychain(host: ServiceHost, channel: ServiceChannel, id: number, request: KeychainOp) {
  const { options } = host;
  const answer = options.keychain
    ? options.keychain(request)
    : Promise.reject(new Error('this host does not drive a keychain for the desk service'));
  answer.then(
    (value) => channel.send({ type: 'keychain.reply', id, ok: true, value }),
    (error: unknown) => channel.send({ type: 'keychain.reply', id, ok: false, error: wireErrorOf(error) }),
  );
}

/** Routes one checked message of the process `channel` to what it answers. */
export function onMessage(
  host: ServiceHost,
  channel: ServiceChannel,
  message: ServiceToHost,
  started: { resolve(pid: number): void; reject(e: Error): void },
) {
  const { pending, hub, log } = host;
  switch (message.type) {
    case 'ready':
      return started.resolve(message.pid);
    case 'start-failed':
      return started.reject(new Error(message.message));
    case 'reply': {
      const call = pending.get(message.id);
      if (!call || call.channel !== channel) return;
      pending.delete(message.id);
      if (message.ok) call.resolve(message.value);
      else {
        const error = message.error ?? { code: 'internal' as const, message: 'the desk service failed' };
        call.reject(new DeskFailure(error.code, error.message, error.details));
      }
      return;
    }
    case 'event':
      return hub.publish(message.event);
    case 'log':
      return log(message.line);
    case 'keychain':
      return answerKeychain(host, channel, message.id, message.request);
  }
}
