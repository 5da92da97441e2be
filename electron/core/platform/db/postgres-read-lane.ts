// One of the read pool's connections (postgres-read-pool.ts) and what it is doing: idle, carrying a
// read, or settling (waiting for the end of a failed read's pipeline before it serves again).
import type { NativeClient } from './postgres-connection';
import type { PipelinedRead } from './postgres-pipeline';
import type { Read } from './postgres-read-types';

export interface Lane {
  client: NativeClient;
  read?: { read: Read; pipeline: PipelinedRead };
  /** A failed read's pipeline whose end (its Sync's answer) has not come yet: not idle until it has. */
  settling?: { pipeline: PipelinedRead; deadline: number };
}

export const idle = (lane: Lane) => !lane.read && !lane.settling;

/** libpq's PQTRANS_UNKNOWN: the connection is bad. */
export const CONNECTION_BAD = 4;
