// What the read pool (postgres-read-pool.ts) and the engine say to each other: the statement a read
// sends, what the engine lends the pool, how a failed read is reported; and a read as the pool holds
// it while it waits for a connection and for its answer.
import type { NativeClient } from './postgres-connection';
import type { ResultRows } from './postgres-rows';

export type Rows = Record<string, unknown>[];

/** What a failed read reports, and whether its connection is gone (then it is dropped). */
export interface ReadFailure {
  reported: unknown;
  /** The connection was cut (a restart, a terminated backend): the read may run once more elsewhere. */
  cut: boolean;
}

/** What the engine lends the pool. */
export interface ReadPoolHost {
  /** At most this many read connections. */
  size: number;
  /** How long a read may wait for its answer (ms); past it, its connection is abandoned. */
  timeoutMs: number;
  /** Opens one connection with the session's settings, without blocking the process. */
  open(): Promise<NativeClient>;
  /** Closes a connection (it may be broken). */
  release(client: NativeClient): void;
  /** The error a failed read on `client` reports, as a synchronous statement would report it. */
  failure(error: unknown, client: NativeClient): ReadFailure;
  /** The pool found the database not answering: the engine's main connection stops waiting on it too. */
  notAnswering(): void;
  log(line: string): void;
}

/** One statement of a read, as the engine sends it on a read connection (in a pipeline: postgres-pipeline.ts). */
export interface ReadStatement {
  /**
   * Sends the statement's preparation, ahead of it in the same pipeline, when it is not prepared on
   * `client` yet (answers whether it sent one). From then on it counts as prepared there, so the same
   * statement twice in one pipeline is prepared once; unless `unprepared` says it was not.
   */
  prepare?(client: NativeClient): boolean;
  /** The preparation sent on `client` was not answered as done (refused, or not run). */
  unprepared?(client: NativeClient): void;
  /** Sends the statement with its values. */
  send(client: NativeClient): boolean;
  /** Reads its rows (the statement's reader); pg-native's when absent. */
  reader?: ResultRows;
}

export interface Read {
  /** Its statements, sent together and answered in one round trip. */
  readonly parts: readonly ReadStatement[];
  /** Answered by then (the statement timeout and its grace from when it was asked). */
  readonly deadline: number;
  waitTimer?: NodeJS.Timeout;
  /** When its statements were sent (last). */
  sentAt?: number;
  /** Already run again once after its connection was cut. */
  again?: boolean;
  /** With the rows of each part, in order. */
  resolve(rows: Rows[]): void;
  reject(error: unknown): void;
}
