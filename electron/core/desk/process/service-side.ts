// The service process's half of the seam: it starts the desk service (service.ts) from the host's
// `start` message and answers the host's requests, forwarding the desk's events and log lines. The
// host's half is host-side.ts; the messages are protocol.ts, checked here on arrival. The keychain
// the host drives is host-keychain.ts, the requests to a started service service-requests.ts.
import { AdjustableClock, systemClock } from '@platform/clock';
import { zodMessages } from '@platform/zod-messages';
import { deskDefaults, type DeskDefaults } from '../defaults';
import type { KeychainAvailability } from '../key-vault';
import { createDeskService, type DeskService, type DeskServiceOptions } from '../service';
import { hostToService, type HostToService, type ServiceLaunch, type ServiceToHost } from './protocol';
import { hostKeychain } from './host-keychain';
import { answerRequest, fail } from './service-requests';

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
  const keychain = hostKeychain((message) => port.send(message));
  const log = (line: string) => port.send({ type: 'log', line });

  async function start(launch: ServiceLaunch): Promise<void> {
    if (service || starting) return;
    starting = true;
    clock = launch.testClock ? new AdjustableClock() : undefined;
    const defaults = (options.defaults ?? deskDefaults)();
    const viaHost: Partial<DeskServiceOptions> =
      launch.keychain === 'host'
        ? {
            secretStoreFactory: (kind, storeOptions) => {
              if (kind === 'keychain') return keychain.vault;
              if (!defaults.secretStoreFactory) throw new Error('no secret store for encrypted files');
              return defaults.secretStoreFactory(kind, storeOptions);
            },
            probeKeychain: async () => (await keychain.ask({ op: 'probe' })) as KeychainAvailability,
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

  async function handle(message: HostToService): Promise<void> {
    if (message.type === 'start') return start(message.launch);
    if (message.type === 'keychain.reply') return keychain.answered(message);
    if (service) return answerRequest(port, service, clock, message);
    if ('id' in message) fail(port, message.id, new Error('the desk service has not started'));
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
