// Reads that let the process go on serving while PostgreSQL answers them. A synchronous statement
// holds the whole process for its round trip: on the hottest reads (a request's token, the warehouse
// inventory) that wait was most of a request's time, and the process's core sat idle through it.
// Here the statement is sent and the process returns to its event loop; libuv tells it when the
// answer is on the socket (libpq's reader), and meanwhile it parses and answers other requests.
//
// One connection. Without a pooler, reads asked for while others are in flight are sent at once in
// libpq's pipeline mode (each read its own sync point, so its own implicit transaction, and a failed
// read does not fail the next): the backend works through them back to back instead of waiting a
// round trip through this process for each, and one wake-up of the process reads every answer that
// has arrived. Behind a pooler in transaction mode (PgBouncer before 1.21 does not follow several
// sync points in flight) one read is in flight at a time and the others wait their turn, in order.
// A synchronous statement (any other query, a transaction) first waits for every read in flight to
// be answered (`settle`) and leaves pipeline mode, so the connection is never shared; queued reads
// start after it.
import type { NativeClient } from './postgres-connection';
import { StatementDeadlinePassed } from './postgres-timed';

export type Rows = Record<string, unknown>[];

/** What the engine lends the reads: its connection and the way it reports a failed statement. */
export interface ReadHost {
  /** The client to send on (reconnected first if it broke); throws when the database is unavailable. */
  client(): NativeClient;
  /** The connection's generation (bumped by each reconnect). */
  generation(): number;
  /** How long a read may wait for its answer (ms); past it the connection is abandoned. */
  timeoutMs: number;
  /** How many reads may be in flight at once (1: no pipeline, as behind a pooler). */
  inFlight: number;
  /**
   * The error to report for a failed read sent on generation `sentIn` (as a synchronous statement
   * reports it; called while the failed result is the handle's last, so its fields can be read), and
   * whether it may run again once: its connection turned out to be cut (a database restarted while
   * this process was idle), and a read changes nothing.
   */
  failure(error: unknown, sentIn: number | undefined): { reported: unknown; again: boolean };
}

/** Sends one read's statement on `client`; false when libpq refused to send it. */
export type SendRead = (client: NativeClient) => boolean;

interface Read {
  send: SendRead;
  /** Already run again once after a cut connection. */
  again?: boolean;
  /** Called when the read fails (its statement's preparation, if it carried one, is then forgotten). */
  onFailure?: () => void;
  resolve(rows: Rows): void;
  reject(error: unknown): void;
}

interface InFlight {
  read: Read;
  generation: number;
  deadline: number;
  rows: Rows;
  failure?: { reported: unknown; again: boolean };
}

/** libpq's PQTRANS_UNKNOWN: what transactionStatus() answers once the connection is bad. */
const CONNECTION_BAD = 4;
const nap = new Int32Array(new SharedArrayBuffer(4));
const FIRST_NAP_MS = 0.02;
const LONGEST_NAP_MS = 1;

export class AsyncReads {
  private readonly queue: Read[] = [];
  /** Reads sent and not yet answered, oldest first, all on `client`. */
  private readonly flight: InFlight[] = [];
  private client: NativeClient | undefined;
  /** `client` is in pipeline mode. */
  private pipelined = false;
  private reading = false;
  /** Fires at the oldest read's deadline (or earlier, and is armed again). */
  private timer: NodeJS.Timeout | undefined;
  /** Clients whose libpq reader already reports to `onReadable`. */
  private readonly listening = new WeakSet<NativeClient>();
  private pumpScheduled = false;
  private closed = false;

  constructor(private readonly host: ReadHost) {}

  /** Sends `send`'s statement when the connection is free; resolves with its rows. */
  run(send: SendRead, onFailure?: () => void): Promise<Rows> {
    if (this.closed) return Promise.reject(new Error('The database connection is closed'));
    return new Promise<Rows>((resolve, reject) => {
      this.queue.push({ send, resolve, reject, ...(onFailure ? { onFailure } : {}) });
      this.pump();
    });
  }

  /**
   * Before a synchronous statement: waits (blocking, within the reads' own deadlines) until every
   * read in flight is answered and hands each its rows, and leaves pipeline mode, so the connection
   * is free. Queued reads go on once the synchronous code has run.
   */
  settle(): void {
    if (this.flight.length === 0 && !this.pipelined) return;
    const pq = this.client!.pq;
    let napMs = FIRST_NAP_MS;
    while (this.flight.length > 0) {
      pq.consumeInput();
      this.readAvailable();
      const head = this.flight[0];
      if (!head) break;
      const left = head.deadline - performance.now();
      if (left <= 0) {
        this.expire();
        break;
      }
      Atomics.wait(nap, 0, 0, Math.min(napMs, left));
      napMs = Math.min(napMs * 1.5, LONGEST_NAP_MS);
    }
    this.idle();
    this.schedulePump();
  }

  close(): void {
    this.closed = true;
    const closed = new Error('The database connection is closed');
    for (const inFlight of this.flight.splice(0)) inFlight.read.reject(closed);
    this.idle();
    for (const read of this.queue.splice(0)) read.reject(closed);
  }

  private schedulePump(): void {
    if (this.pumpScheduled || this.queue.length === 0) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  /** Sends queued reads while there is room in flight (failing reads that cannot be sent). */
  private pump(): void {
    while (this.queue.length > 0 && this.flight.length < this.host.inFlight && !this.closed) {
      const read = this.queue.shift()!;
      let generation: number | undefined;
      try {
        const client = this.host.client();
        if (this.flight.length > 0 && client !== this.client) {
          // (cannot happen: a connection is replaced only once nothing is in flight on it)
          this.queue.unshift(read);
          return;
        }
        generation = this.host.generation();
        this.send(client, read);
        const wasIdle = this.flight.length === 0;
        this.flight.push({ read, generation, deadline: performance.now() + this.host.timeoutMs, rows: [] });
        this.listen(client);
        this.arm();
        // A connection that was cut while idle may never wake the reader (its end was already read
        // into libpq's buffer): what is already known is handled now.
        if (wasIdle && (!client.pq.consumeInput() || !client.pq.isBusy())) this.readAvailable();
      } catch (error) {
        this.fail(read, this.host.failure(error, generation));
      }
    }
  }

  private send(client: NativeClient, read: Read): void {
    const pq = client.pq;
    if (this.client !== client) {
      this.client = client;
      this.pipelined = false;
    }
    if (this.host.inFlight > 1 && !this.pipelined) {
      if (!pq.enterPipelineMode()) throw new Error(pq.errorMessage() || 'the connection could not enter pipeline mode');
      this.pipelined = true;
    }
    if (!read.send(client) || (this.pipelined && !pq.pipelineSync())) {
      throw new Error(pq.errorMessage() || 'the statement could not be sent');
    }
  }

  private listen(client: NativeClient): void {
    if (!this.reading) {
      client.pq.startReader();
      this.reading = true;
    }
    if (this.listening.has(client)) return;
    this.listening.add(client);
    client.pq.on('readable', () => {
      if (this.client !== client || this.flight.length === 0) return;
      client.pq.consumeInput();
      this.readAvailable();
      if (this.flight.length === 0) this.stopReading();
      this.pump();
    });
  }

  private stopReading(): void {
    if (!this.reading) return;
    this.reading = false;
    this.client?.pq.stopReader();
  }

  /**
   * Hands out every answer that has arrived, in order, without waiting for more. A read's answer
   * ends with its sync point in pipeline mode, with libpq's end of results otherwise.
   */
  private readAvailable(): void {
    const client = this.client!;
    const pq = client.pq;
    let ends = 0;
    while (this.flight.length > 0 && !pq.isBusy()) {
      const head = this.flight[0]!;
      if (!pq.getResult()) {
        if (pq.transactionStatus() === CONNECTION_BAD) return this.lostAll(new Error(pq.errorMessage() || 'the connection was lost'));
        if (!this.pipelined) {
          this.complete();
          continue;
        }
        // between a statement's results and its sync point; never twice in a row unless confused
        // (then the deadline abandons the connection)
        if (++ends > 2) return;
        continue;
      }
      ends = 0;
      const status = pq.resultStatus();
      if (status === 'PGRES_PIPELINE_SYNC') {
        this.complete();
      } else if (status === 'PGRES_FATAL_ERROR') {
        const error = new Error(pq.resultErrorMessage() || pq.errorMessage());
        head.failure ??= this.host.failure(error, head.generation);
        if (head.failure.again) return this.lostAll(error);
      } else if (status === 'PGRES_TUPLES_OK') {
        head.rows = client._consumeQueryResults(pq).rows;
      }
      // PGRES_COMMAND_OK (a statement's preparation), PGRES_PIPELINE_ABORTED (skipped after an error)
    }
  }

  /** The oldest read in flight is answered. */
  private complete(): void {
    const done = this.flight.shift()!;
    if (done.failure) this.fail(done.read, done.failure);
    else done.read.resolve(done.rows);
  }

  /** The connection broke under the reads in flight: each fails as the first did (a cut one runs again). */
  private lostAll(cause: unknown): void {
    const first = this.flight[0];
    const failures = this.flight.splice(0).map((inFlight) => ({
      read: inFlight.read,
      failure: inFlight === first && inFlight.failure ? inFlight.failure : this.host.failure(cause, inFlight.generation),
    }));
    this.idle();
    // in the order they were asked: those run again go back to the front of the queue
    for (const { read, failure } of failures.reverse()) this.fail(read, failure);
    this.schedulePump();
  }

  private fail(read: Read, failure: { reported: unknown; again: boolean }): void {
    read.onFailure?.();
    if (!failure.again || read.again) return read.reject(failure.reported);
    read.again = true;
    this.queue.unshift(read);
  }

  /** Nothing in flight: stop reading, leave pipeline mode (a synchronous statement may follow). */
  private idle(): void {
    this.stopReading();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.pipelined) return;
    this.pipelined = false;
    const client = this.client!;
    // Left with answers pending only if the connection broke (then it is replaced anyway) or is being
    // closed; otherwise it cannot carry a synchronous statement, so it is dropped like an unanswered one.
    if (!this.closed && client.pq.transactionStatus() !== CONNECTION_BAD && !client.pq.exitPipelineMode()) {
      this.host.failure(new StatementDeadlinePassed(this.host.timeoutMs), undefined);
    }
  }

  /** The deadline timer: armed for the oldest read; when it fires early it is armed again. */
  private arm(): void {
    const head = this.flight[0];
    if (this.timer || !head) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        const oldest = this.flight[0];
        if (!oldest) return;
        if (oldest.deadline <= performance.now()) this.expire();
        else this.arm();
      },
      Math.max(head.deadline - performance.now(), 1),
    );
    this.timer.unref();
  }

  /** No answer within the deadline: the reads in flight are abandoned with their connection (the host drops it). */
  private expire(): void {
    const late = new StatementDeadlinePassed(this.host.timeoutMs);
    const failures = this.flight
      .splice(0)
      .map((inFlight) => ({ read: inFlight.read, failure: this.host.failure(late, inFlight.generation) }));
    this.pipelined = false;
    this.idle();
    for (const { read, failure } of failures) this.fail(read, failure);
    this.pump();
  }
}
