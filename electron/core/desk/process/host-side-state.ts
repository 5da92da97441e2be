// The host's record of its service process (host-side.ts), shared by its parts.
import type { Clock } from '@platform/clock';
import type { EventHub } from '@desk/events';
import type { DeskServiceProcessOptions, ServiceChannel, ServiceLifecycle } from './host-side-api';

export interface Generation {
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
