// What the back office's desk side (index.ts) is given and what it answers.
import type { z } from 'zod';
import type {
  AccountMovementsOutput,
  BackOfficeSession,
  OperatorReadName,
  OperatorWriteName,
  backOfficeReadOutput,
  BackOfficeWriteOutput,
} from '@shared/desk/back-office';
import type { DeskEvent } from '@shared/desk/api';
import type { Clock } from '@platform/clock';
import type { ConnectionRuntime } from '@desk/connection-runtime';
import type { OnlineTracker } from '@desk/registry-calls';
import type { BackOfficeStore } from './store';

export interface BackOfficeOptions {
  /** The active connection's runtime, or null when none is active. */
  active: () => ConnectionRuntime | null;
  tracker: OnlineTracker;
  publish(event: DeskEvent): void;
  clock: Clock;
  /** The store of read answers of a connection (the back-office cache). */
  storeFor?: (runtime: ConnectionRuntime) => BackOfficeStore;
  /** Sends of a write in all, each with the client's own retries (default 3), and the wait between them. */
  writeAttempts?: number;
  writeRetryDelayMs?: number;
  log?: (line: string) => void;
}

export interface BackOffice {
  session(): Promise<BackOfficeSession>;
  read(input: {
    endpoint: OperatorReadName;
    params?: Record<string, string>;
    query?: Record<string, string | number>;
  }): Promise<z.output<typeof backOfficeReadOutput>>;
  write(input: WriteInput): Promise<BackOfficeWriteOutput>;
  settle(input: WriteInput): Promise<BackOfficeWriteOutput>;
  accountMovements(input: { accountIds: string[]; offset: number; limit: number }): AccountMovementsOutput;
  /** Syncs the back-office cache of the active connection (after the seed sync); one run at a time. */
  sync(): Promise<void>;
}

export interface WriteInput {
  endpoint: OperatorWriteName;
  params?: Record<string, string>;
  body?: unknown;
  idempotencyKey: string;
}
