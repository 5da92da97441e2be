// The sync worker's messages to its host (host.ts), each routed to the part it is for.
import type { Worker } from 'node:worker_threads';
import type { TokenManager } from '@desk/client/tokens';
import { send, type Host } from './host-state';
import type { WorkerToHost } from './protocol';
import { fromWireError, toWireError } from './wire-error';

/** What the worker asks of the app's tokens: answered from the main thread's token manager. */
function answerToken(host: Host, from: Worker, message: Extract<WorkerToHost, { type: 'token' }>) {
  const { tokens } = host.options;
  const scope = message.scope ?? { kind: 'app' as const };
  const answer: Promise<string | Awaited<ReturnType<TokenManager['grant']>>> =
    message.op === 'get' ? tokens.get(scope) : message.op === 'grant' ? tokens.grant(scope) : tokens.appJwt();
  answer.then(
    (value) => send(from, { type: 'token-reply', id: message.id, ok: true, value }),
    (error: unknown) => send(from, { type: 'token-reply', id: message.id, ok: false, error: toWireError(error) }),
  );
}

/** A run the worker answered: its caller hears, and checkpoints wait no longer once none is left. */
function settleRun(host: Host, message: Extract<WorkerToHost, { type: 'run-done' | 'run-failed' }>) {
  const run = host.pending.get(message.id);
  host.pending.delete(message.id);
  if (!run) return;
  if (message.type === 'run-done') run.resolve(message.result);
  else run.reject(fromWireError(message.error));
  if (host.pending.size === 0) host.checkpoints.startAfterRuns();
}

/** Routes one message of the worker `from` to the part of the host it is for. */
export function onMessage(host: Host, from: Worker, message: WorkerToHost) {
  switch (message.type) {
    case 'event': {
      host.state = message.state;
      // The finished event's status is recomputed here so its last-success times are current.
      host.emit(message.event.type === 'finished' ? { ...message.event, status: host.status() } : message.event);
      break;
    }
    case 'state':
      host.state = message.state;
      break;
    case 'run-done':
    case 'run-failed':
      settleRun(host, message);
      break;
    case 'token':
      answerToken(host, from, message);
      break;
    case 'token-invalidate':
      host.options.tokens.invalidate(message.scope, message.token);
      break;
    case 'token-clear':
      host.options.tokens.clear();
      break;
    case 'checkpoint':
      host.checkpoints.request(from, message.id);
      break;
    case 'checkpointed':
      host.checkpoints.madeHere(message.id);
      break;
    case 'closed':
      void from.terminate();
      break;
  }
}
