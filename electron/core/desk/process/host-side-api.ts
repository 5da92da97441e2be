// What the host's half of the seam (host-side.ts) is given and what it answers.
import type { PickedKey } from '@shared/desk/api';
import type { Clock } from '@platform/clock';
import type { Artifact } from '@desk/artifacts';
import type { DeskDispatcher } from '@desk/dispatcher';
import type { WindowState } from '@desk/settings';
import type { HostToService, KeychainOp, ServiceLaunch } from './protocol';

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
