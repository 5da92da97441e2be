// The host's half of the seam: the desk service in a process of its own (Electron's utilityProcess,
// or a Node child process under the web host), seen as the same DeskDispatcher the hosts already
// route to. Why a process: the service's work (the embedded registry's HTTP server, cache reads,
// certificate PDFs, CSV exports) must never hold the process that routes the window's calls and
// events. Each request carries an id and gets one reply; events and log lines flow back; every
// message is checked against protocol.ts on arrival.
//
// A service process that stops unexpectedly fails the calls it owed with a clear error, is reported
// (onLifecycle, the log) and started again on the same data; the page hears of it through a
// `connections.changed` event (it re-reads its connections). More than `restarts.max` stops within `restarts.windowMs` and it is
// not started again: every call then says so.
import type { DeskEvent, DeskResult, PickedKey } from '@shared/desk/api';
import { systemClock, type Clock } from '@platform/clock';
import { zodMessages } from '@platform/zod-messages';
import type { Artifact } from '../artifacts';
import type { DeskDispatcher } from '../dispatcher';
import { DeskFailure, toDeskError } from '../errors';
import { createEventHub, type EventHub } from '../events';
import { KeyReadError, type KeychainAvailability, type KeyVault, type SecretStoreFactory } from '../key-vault';
import { keychainAvailability, openSecretStore } from '../secret-stores';
import type { WindowState } from '../settings';
import {
  deskResult,
  replyValues,
  serviceToHost,
  type HostToService,
  type KeychainOp,
  type ServiceLaunch,
  type ServiceToHost,
  type WireError,
} from './protocol';

/** One service process as the host sees it (a forked child, or an Electron utility process). */
export interface ServiceChannel {
  send(message: HostToService): void;
  onMessage(listener: (message: unknown) => void): void;
  /** Called once when the process has ended, with why (exit code or signal). */
  onExit(listener: (reason: string) => void): void;
  /** Ends the process at once. */
  kill(): void;
}

export type ServiceLifecycle =
  { type: 'crashed'; reason: string } | { type: 'restarted'; pid: number } | { type: 'stopped'; reason: string };

export interface DeskServiceProcessOptions {
  launch: ServiceLaunch;
  /** Starts one service process. */
  spawn: () => ServiceChannel;
  log?: (line: string) => void;
  /** Drives the OS keychain for the service (launch.keychain === 'host'). */
  keychain?: (request: KeychainOp) => Promise<unknown>;
  /** At most `max` restarts within `windowMs` (default 3 in 60 s). */
  restarts?: { max: number; windowMs: number };
  clock?: Clock;
  /** How long a start may take (the embedded registry seeds its demo data on a first start). */
  startTimeoutMs?: number;
  /** How long close() waits for the service to close its databases before ending it. */
  closeTimeoutMs?: number;
}

export interface DeskServiceProcess extends DeskDispatcher {
  readonly artifacts: { get(handle: string): Promise<Artifact | undefined>; release(handle: string): void };
  readonly keyImports: { put(pem: string, fileName: string): Promise<PickedKey> };
  /** The service process's id (it changes on a restart). */
  readonly pid: number;
  windowState(): Promise<WindowState | null>;
  saveWindowState(window: WindowState): Promise<void>;
  /** Moves the service's test clock (launch.testClock); answers its offset. */
  advanceTestClock(ms: number): Promise<number>;
  onLifecycle(listener: (change: ServiceLifecycle) => void): () => void;
  close(): Promise<void>;
}

function wireErrorOf(error: unknown): WireError {
  const message = error instanceof Error ? error.message : String(error);
  return error instanceof KeyReadError ? { message, reason: error.reason } : { message };
}

/** The OS keychain, driven where it works (Electron's main process), for a service that asks for it. */
export function keychainDriver(
  open: SecretStoreFactory = openSecretStore,
  probe: () => Promise<KeychainAvailability> = keychainAvailability,
): (request: KeychainOp) => Promise<unknown> {
  let vault: Promise<KeyVault> | undefined;
  const keychain = () => (vault ??= Promise.resolve(open('keychain', { connectionId: '', directory: '' })));
  return async (request) => {
    switch (request.op) {
      case 'probe':
        return probe();
      case 'read':
        return (await keychain()).readPrivateKey(request.connectionId);
      case 'import':
        return (await keychain()).importPrivateKey(request.connectionId, request.pem);
      case 'delete':
        return (await keychain()).deletePrivateKey(request.connectionId);
    }
  };
}

interface Generation {
  channel: ServiceChannel;
  ready: Promise<number>;
  exited: Promise<void>;
}

/** The host's record of its service process, which its parts share (requests, messages, restarts). */
export interface ServiceHost {
  readonly options: DeskServiceProcessOptions;
  readonly log: (line: string) => void;
  readonly clock: Clock;
  readonly restarts: { max: number; windowMs: number };
  readonly hub: EventHub;
  readonly lifecycle: EventHub<ServiceLifecycle>;
  /** The requests sent and not answered yet, by id, with the process they were sent to. */
  readonly pending: Map<number, { channel: ServiceChannel; resolve: (value: unknown) => void; reject: (error: Error) => void }>;
  /** When the process stopped unexpectedly, within the restarts' window. */
  readonly crashes: number[];
  nextId: number;
  pid: number;
  closing: boolean;
  /** Why the process is not started again, once it stopped too often. */
  stopped: string | undefined;
  /** The process now: each restart is a new generation. */
  current: Generation;
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
function onMessage(
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

/** Sends a request to the process now (once it is ready) and answers its reply. */
export async function request(host: ServiceHost, build: (id: number) => HostToService): Promise<unknown> {
  const { pending } = host;
  if (host.stopped) throw new DeskFailure('internal', host.stopped);
  if (host.closing) throw new DeskFailure('internal', 'The desk is closing');
  const generation = host.current;
  try {
    await generation.ready;
  } catch (error) {
    throw new DeskFailure('internal', `The desk service is not running: ${(error as Error).message}`);
  }
  const id = host.nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { channel: generation.channel, resolve, reject });
    generation.channel.send(build(id));
  });
}

/** A reply's value checked against its schema: the process is ours, but a malformed answer is said. */
export function parsed<T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } },
  value: unknown,
  what: string,
): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new DeskFailure('internal', `the desk service answered a malformed ${what}`);
  return result.data;
}

/** Asks the process to close its databases and end; one that does not in time is ended. */
async function closeService(host: ServiceHost): Promise<void> {
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

export async function startDeskServiceProcess(options: DeskServiceProcessOptions): Promise<DeskServiceProcess> {
  const log = options.log ?? (() => {});
  const fields: Omit<ServiceHost, 'current'> = {
    options,
    log,
    clock: options.clock ?? systemClock,
    restarts: options.restarts ?? { max: 3, windowMs: 60_000 },
    hub: createEventHub((error) => log(`event listener failed: ${(error as Error).message}`)),
    lifecycle: createEventHub<ServiceLifecycle>((error) => log(`lifecycle listener failed: ${(error as Error).message}`)),
    pending: new Map(),
    crashes: [],
    nextId: 0,
    pid: 0,
    closing: false,
    stopped: undefined,
  };
  // The first generation is launched at once: it needs the record it reports to, which holds it.
  const host = fields as ServiceHost;
  host.current = launch(host);
  const { hub, lifecycle } = host;

  try {
    host.pid = await host.current.ready;
  } catch (error) {
    host.closing = true;
    host.current.channel.kill();
    throw error;
  }

  return {
    async dispatch(method: string, input: unknown): Promise<DeskResult<unknown>> {
      try {
        return parsed(deskResult, await request(host, (id) => ({ type: 'call', id, method, input })), 'call result');
      } catch (error) {
        return { ok: false, error: toDeskError(error) };
      }
    },
    onEvent: (listener: (event: DeskEvent) => void) => hub.subscribe(listener),
    artifacts: {
      async get(handle) {
        const value = parsed(replyValues.artifact, await request(host, (id) => ({ type: 'artifact.get', id, handle })), 'file');
        return value ?? undefined;
      },
      release(handle) {
        if (host.stopped || host.closing) return;
        void host.current.ready.then(
          () => host.current.channel.send({ type: 'artifact.release', handle }),
          () => {},
        );
      },
    },
    keyImports: {
      async put(pem, fileName) {
        return parsed(replyValues.pickedKey, await request(host, (id) => ({ type: 'key.put', id, pem, fileName })), 'key handle');
      },
    },
    get pid() {
      return host.pid;
    },
    async windowState() {
      return parsed(replyValues.window, await request(host, (id) => ({ type: 'window.get', id })), 'window state');
    },
    async saveWindowState(window) {
      await request(host, (id) => ({ type: 'window.set', id, window }));
    },
    async advanceTestClock(ms) {
      return parsed(replyValues.clockOffset, await request(host, (id) => ({ type: 'clock.advance', id, ms })), 'clock offset');
    },
    onLifecycle: (listener) => lifecycle.subscribe(listener),
    close: () => closeService(host),
  };
}
