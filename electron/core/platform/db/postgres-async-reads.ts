// Reads that let the process go on serving while PostgreSQL answers them. A synchronous statement
// holds the whole process for its round trip: on the hottest reads (a request's token, the warehouse
// inventory) that wait was most of a request's time, and the process's core sat idle through it.
// Here the statement is sent and the process returns to its event loop; libuv tells it when the
// answer is on the socket (libpq's reader), and meanwhile it parses and answers other requests.
//
// One connection, so one statement in flight: reads asked for meanwhile wait their turn here, in
// order. A synchronous statement (any other query, a transaction) first waits for the read in flight
// to be answered (`settle`), so the connection is never shared; queued reads start after it.
import type { NativeClient } from './postgres-connection';
import { runWithDeadline, StatementDeadlinePassed } from './postgres-timed';

export type Rows = Record<string, unknown>[];

/** What the engine lends the reads: its connection and the way it reports a failed statement. */
export interface ReadHost {
  /** The client to send on (reconnected first if it broke); throws when the database is unavailable. */
  client(): NativeClient;
  /** The connection's generation (bumped by each reconnect). */
  generation(): number;
  /** How long a read may wait for its answer (ms); past it the connection is abandoned. */
  timeoutMs: number;
  /**
   * The error to report for a failed read sent on generation `sentIn` (as a synchronous statement
   * reports it), and whether it may run again once: its connection turned out to be cut (a database
   * restarted while this process was idle), and a read changes nothing.
   */
  failure(error: unknown, sentIn: number | undefined): { reported: unknown; again: boolean };
}

interface Read {
  send(client: NativeClient): boolean;
  /** Already run again once after a cut connection. */
  again?: boolean;
  resolve(rows: Rows): void;
  reject(error: unknown): void;
}

interface InFlight {
  read: Read;
  client: NativeClient;
  generation: number;
  deadline: number;
  timer: NodeJS.Timeout;
}

export class AsyncReads {
  private readonly queue: Read[] = [];
  private current: InFlight | undefined;
  /** Clients whose libpq reader already reports to `onReadable`. */
  private readonly listening = new WeakSet<NativeClient>();
  private pumpScheduled = false;
  private closed = false;

  constructor(private readonly host: ReadHost) {}

  /** Sends `send`'s statement when the connection is free; resolves with its rows. */
  run(send: (client: NativeClient) => boolean): Promise<Rows> {
    if (this.closed) return Promise.reject(new Error('The database connection is closed'));
    return new Promise<Rows>((resolve, reject) => {
      this.queue.push({ send, resolve, reject });
      if (!this.current) this.pump();
    });
  }

  /**
   * Before a synchronous statement: waits (blocking, within the read's own deadline) until the read
   * in flight is answered and hands it its rows, so the connection is free. Queued reads go on once
   * the synchronous code has run.
   */
  settle(): void {
    const inFlight = this.current;
    if (!inFlight) return;
    this.finish(inFlight);
    this.schedulePump();
  }

  close(): void {
    this.closed = true;
    if (this.current) this.stop(this.current);
    this.current = undefined;
    for (const read of this.queue.splice(0)) read.reject(new Error('The database connection is closed'));
  }

  private schedulePump(): void {
    if (this.pumpScheduled || this.queue.length === 0) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      if (!this.current) this.pump();
    });
  }

  /** Starts the next queued read (failing reads that cannot be sent, one after another). */
  private pump(): void {
    while (!this.current && !this.closed) {
      const read = this.queue.shift();
      if (!read) return;
      let generation: number | undefined;
      try {
        const client = this.host.client();
        generation = this.host.generation();
        if (!read.send(client)) throw new Error(client.pq.errorMessage() || 'the statement could not be sent');
        this.listen(client);
        client.pq.startReader();
        const timer = setTimeout(() => this.expire(), this.host.timeoutMs);
        this.current = { read, client, generation, deadline: performance.now() + this.host.timeoutMs, timer };
        // A connection that was cut while idle may never wake the reader (its end was already read
        // into libpq's buffer): what is already known is handled now.
        if (!client.pq.consumeInput() || !client.pq.isBusy()) this.finish(this.current);
      } catch (error) {
        this.failed(read, error, generation);
      }
    }
  }

  private listen(client: NativeClient): void {
    if (this.listening.has(client)) return;
    this.listening.add(client);
    client.pq.on('readable', () => {
      const inFlight = this.current;
      if (!inFlight || inFlight.client !== client) return;
      // still busy: more of the answer is to come (a broken connection is reported by finish)
      if (client.pq.consumeInput() && client.pq.isBusy()) return;
      this.finish(inFlight);
      this.pump();
    });
  }

  private stop(inFlight: InFlight): void {
    clearTimeout(inFlight.timer);
    inFlight.client.pq.stopReader();
  }

  /** Reads the answer of the read in flight (waiting for the rest of it, within its deadline). */
  private finish(inFlight: InFlight): void {
    this.stop(inFlight);
    this.current = undefined;
    try {
      const left = Math.max(inFlight.deadline - performance.now(), 1);
      inFlight.read.resolve(runWithDeadline(inFlight.client, () => true, left));
    } catch (error) {
      const late = error instanceof StatementDeadlinePassed ? new StatementDeadlinePassed(this.host.timeoutMs) : error;
      this.failed(inFlight.read, late, inFlight.generation);
    }
  }

  private failed(read: Read, error: unknown, sentIn: number | undefined): void {
    const { reported, again } = this.host.failure(error, sentIn);
    if (!again || read.again) return read.reject(reported);
    read.again = true;
    this.queue.unshift(read);
  }

  /** No answer within the deadline: the statement is abandoned with its connection (the host drops it). */
  private expire(): void {
    const inFlight = this.current;
    if (!inFlight) return;
    this.stop(inFlight);
    this.current = undefined;
    this.failed(inFlight.read, new StatementDeadlinePassed(this.host.timeoutMs), inFlight.generation);
    this.pump();
  }
}
