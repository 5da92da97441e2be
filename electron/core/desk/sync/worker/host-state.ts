// The host's side of the sync worker (host.ts), as its parts share it: the runs the worker owes,
// the worker's last state, its heap limit, and the checkpoint workers.
import type { Worker } from 'node:worker_threads';
import type { SyncResource, EngineSyncStatus } from '@shared/desk/api';
import type { InstallationRef } from '../context';
import type { SyncEngineEvent, SyncRunResult } from '../types';
import type { WorkerSyncEngineOptions } from './host-options';
import type { EngineState, HostToWorker } from './protocol';

export interface PendingRun {
  resources: SyncResource[];
  installations: InstallationRef[];
  resolve: (result: SyncRunResult) => void;
  reject: (error: Error) => void;
}

/** Workers checkpointing a first sync's load (cache/deferred-checkpoint.ts). */
export interface HostCheckpoints {
  /** The sync worker asks for checkpoint `id`: started now, or once no run is left. */
  request(from: Worker, id: number): void;
  /** Starts those asked for during runs (none is left, or none will end). */
  startAfterRuns(): void;
  /** The sync worker made checkpoint `id` itself. */
  madeHere(id: number): void;
  /** Settles once the checkpoints started so far have ended. */
  ended(): Promise<void>;
}

/** The host's side of its worker: shared by the thread's lifecycle, the message routing and the engine. */
export interface Host {
  readonly options: WorkerSyncEngineOptions;
  /** The runs sent to the worker and not answered yet, by id. */
  readonly pending: Map<number, PendingRun>;
  readonly maxHeapLimitMb: number;
  heapLimitMb: number;
  worker: Worker | null;
  state: EngineState;
  closed: boolean;
  readonly checkpoints: HostCheckpoints;
  emit(event: SyncEngineEvent): void;
  status(): EngineSyncStatus;
}

export const clockOffsetMs = (host: Host) => host.options.clock.now() - Date.now();

export function send(target: Worker, message: HostToWorker) {
  target.postMessage(message);
}
