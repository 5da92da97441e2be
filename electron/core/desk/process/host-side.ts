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
// not started again: every call then says so. This file is the face the hosts use; the lifecycle is
// host-side-generations.ts, the messages host-side-messages.ts, the requests host-side-requests.ts.
import type { DeskEvent, DeskResult } from '@shared/desk/api';
import { systemClock } from '@platform/clock';
import { toDeskError } from '../errors';
import { createEventHub } from '../events';
import type { KeychainAvailability, KeyVault, SecretStoreFactory } from '../key-vault';
import { keychainAvailability, openSecretStore } from '../secret-stores';
import type { DeskServiceProcess, DeskServiceProcessOptions, ServiceLifecycle } from './host-side-api';
import { closeService, launch } from './host-side-generations';
import { parsed, request } from './host-side-requests';
import type { ServiceHost } from './host-side-state';
import { deskResult, replyValues, type KeychainOp } from './protocol';

export type { DeskServiceProcess, DeskServiceProcessOptions, ServiceChannel, ServiceLifecycle } from './host-side-api';

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
