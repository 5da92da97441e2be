// The service process's half of the seam: it starts the desk service (service.ts) from the host's
// `start` message and answers the host's requests, forwarding the desk's events and log lines. The
// host's half is host-side.ts; the messages are protocol.ts, checked here on arrival.
import { AdjustableClock, systemClock } from '@platform/clock';
import { zodMessages } from '@platform/zod-messages';
import { deskDefaults, type DeskDefaults } from '../defaults';
import { toDeskError } from '../errors';
import { KeyReadError, type KeychainAvailability, type KeyVault } from '../key-vault';
import { createDeskService, type DeskService, type DeskServiceOptions } from '../service';
import { hostToService, type HostToService, type KeychainOp, type ServiceLaunch, type ServiceToHost } from './protocol';

/** How the service process talks to its host: process.send under Node, process.parentPort in Electron. */
export interface HostPort {
  send(message: ServiceToHost): void;
  onMessage(listener: (message: unknown) => void): void;
  /** Leaves the process (after `close`, or when the service could not start). */
  exit(code: number): void;
}

export interface ServeOptions {
  /** The service's collaborators (tests pass their own); default deskDefaults(). */
  defaults?: () => DeskDefaults;
  /** Extra service options that cannot cross a process boundary (tests). */
  extra?: Partial<DeskServiceOptions>;
}

export function serveDesk(port: HostPort, options: ServeOptions = {}): void {
  let service: DeskService | undefined;
  let starting = false;
  let clock: AdjustableClock | undefined;
  const keychainCalls = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextKeychainId = 0;
  const log = (line: string) => port.send({ type: 'log', line });

  function askKeychain(request: KeychainOp): Promise<unknown> {
    const id = nextKeychainId++;
    return new Promise((resolve, reject) => {
      keychainCalls.set(id, { resolve, reject });
      port.send({ type: 'keychain', id, request });
    });
  }

  /** The OS keychain driven by the host (Electron's main process keeps what works there). */
  const hostKeychain: KeyVault = {
    kind: 'keychain',
    async readPrivateKey(connectionId) {
      const pem = await askKeychain({ op: 'read', connectionId });
      if (typeof pem !== 'string') throw new KeyReadError('unreadable', 'the keychain answered something that is not a key');
      return pem;
    },
    async importPrivateKey(connectionId, pem) {
      await askKeychain({ op: 'import', connectionId, pem });
    },
    async deletePrivateKey(connectionId) {
      await askKeychain({ op: 'delete', connectionId });
    },
  };

  async function start(launch: ServiceLaunch): Promise<void> {
    if (service || starting) return;
    starting = true;
    clock = launch.testClock ? new AdjustableClock() : undefined;
    const defaults = (options.defaults ?? deskDefaults)();
    const viaHost: Partial<DeskServiceOptions> =
      launch.keychain === 'host'
        ? {
            secretStoreFactory: (kind, storeOptions) => {
              if (kind === 'keychain') return hostKeychain;
              if (!defaults.secretStoreFactory) throw new Error('no secret store for encrypted files');
              return defaults.secretStoreFactory(kind, storeOptions);
            },
            probeKeychain: async () => (await askKeychain({ op: 'probe' })) as KeychainAvailability,
          }
        : {};
    try {
      service = await createDeskService({
        dataDir: launch.dataDir,
        host: launch.host,
        version: launch.version,
        clock: clock ?? systemClock,
        ...defaults,
        ...viaHost,
        ...(launch.remote ? { remote: launch.remote } : {}),
        syncWorker: launch.syncWorkerFile ? { workerFile: launch.syncWorkerFile } : {},
        ...(launch.autoSync === false ? { autoSync: false } : {}),
        ...(launch.certificateWorkers ? { certificateWorkers: launch.certificateWorkers } : {}),
        log,
        ...options.extra,
      });
    } catch (error) {
      port.send({ type: 'start-failed', message: error instanceof Error ? error.message : String(error) });
      port.exit(1);
      return;
    }
    service.onEvent((event) => port.send({ type: 'event', event }));
    port.send({ type: 'ready', pid: process.pid });
  }

  const reply = (id: number, value: unknown) => port.send({ type: 'reply', id, ok: true, value });
  const fail = (id: number, error: unknown) => port.send({ type: 'reply', id, ok: false, error: toDeskError(error) });

  async function handle(message: HostToService): Promise<void> {
    if (message.type === 'start') return start(message.launch);
    if (message.type === 'keychain.reply') {
      const call = keychainCalls.get(message.id);
      keychainCalls.delete(message.id);
      if (!call) return;
      if (message.ok) call.resolve(message.value);
      else {
        const error = message.error ?? { message: 'the keychain failed' };
        call.reject(error.reason ? new KeyReadError(error.reason, error.message) : new Error(error.message));
      }
      return;
    }
    const desk = service;
    if (!desk) {
      if ('id' in message) fail(message.id, new Error('the desk service has not started'));
      return;
    }
    try {
      switch (message.type) {
        case 'call':
          return reply(message.id, await desk.dispatch(message.method, message.input));
        case 'artifact.get':
          return reply(message.id, desk.artifacts.get(message.handle) ?? null);
        case 'artifact.release':
          return desk.artifacts.release(message.handle);
        case 'key.put':
          return reply(message.id, desk.keyImports.put(message.pem, message.fileName));
        case 'window.get':
          return reply(message.id, desk.settings.get().window);
        case 'window.set':
          desk.settings.update({ window: message.window });
          return reply(message.id, null);
        case 'clock.advance':
          if (!clock) throw new Error('the desk was not started with --test-clock');
          clock.advance(message.ms);
          return reply(message.id, clock.offset);
        case 'close':
          await desk.close();
          reply(message.id, null);
          port.exit(0);
          return;
      }
    } catch (error) {
      if ('id' in message) fail(message.id, error);
    }
  }

  port.onMessage((raw) => {
    const parsed = hostToService.safeParse(raw);
    if (!parsed.success) {
      log(`dropped a malformed message from the host: ${zodMessages(parsed.error.issues).join('; ')}`);
      return;
    }
    void handle(parsed.data);
  });
}
