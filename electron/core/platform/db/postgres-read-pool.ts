// Reads that let the process go on serving while PostgreSQL answers them (the hottest: a request's
// token, the warehouse inventory), on a small pool of connections of their own: the statement is
// sent, the process returns to its event loop, and libuv tells it when the answer is on the socket.
//
// Why a pool: on the one connection every read waited for the one before it to travel to the
// backend and back through this busy process, which sat idle most of the time. Each read connection
// is an ordinary libpq connection with one read in flight (its statements in one pipeline:
// postgres-pipeline.ts), so a cut one is found as the main one is. A read goes to an idle connection; another is opened (in the background) only when every open
// one is busy, up to the pool's size; reads beyond that wait their turn, in order.
//
// A read's deadline (the statement timeout and its grace) counts from when it was asked: time spent
// waiting for a connection is part of it, and a read still waiting at its deadline is answered 503
// then by its timer (postgres-read-queue.ts). One sent late is abandoned at that same deadline. No
// answer is waited for while the process is held: a read is taken only as far as it has come.
//
// The main connection (transactions, writes, every synchronous statement) is not one of them. A read
// is never inside a transaction (allAsync refuses), and it is sent only when asked: after every write
// this process committed before asking it. PostgreSQL makes a commit visible to every snapshot taken
// after the COMMIT is answered, so a read sees what this process (or any other) wrote before it.
import { DatabaseTimeoutError, DatabaseUnavailableError } from './database-errors';
import type { NativeClient } from './postgres-connection';
import { PipelinedRead } from './postgres-pipeline';
import { LaneOpener } from './postgres-read-lane-opener';
import { CONNECTION_BAD, idle, type Lane } from './postgres-read-lane';
import { ReadLooks } from './postgres-read-looks';
import { ReadQueue } from './postgres-read-queue';
import type { Read, ReadPoolHost, ReadStatement, Rows } from './postgres-read-types';
import { StatementDeadlinePassed } from './postgres-timed';

// How often a read in flight looks at its socket itself. libuv reports a reset connection to libpq's
// watcher as a failed poll, which pg-native's binding drops: such a read would wait out its deadline.
const LOOK_EVERY_MS = 100;

export class ReadPool {
  private readonly lanes: Lane[] = [];
  private readonly queue = new ReadQueue<Read>((read) => read.reject(new DatabaseTimeoutError(this.host.timeoutMs)));
  private readonly looks = new ReadLooks(LOOK_EVERY_MS, () => this.lookAll());
  private readonly opener = new LaneOpener({
    open: () => this.host.open(),
    closed: () => this.closed,
    release: (client) => this.host.release(client),
    standing: () => ({ queued: this.queue.length, lanes: this.lanes.length }),
    opened: (client) => this.opened(client),
    failed: (error, slow) => this.openFailed(error, slow),
  });
  private closed = false;
  /** Opens have failed and it was logged (once per episode). */
  private reportedDown = false;
  /** The database stopped answering: see whileUnanswered. */
  private unanswered = false;

  constructor(private readonly host: ReadPoolHost) {}

  /** Open read connections (for tests and measurements). */
  get open(): number {
    return this.lanes.length;
  }

  /**
   * Sends the statements together on an idle read connection; resolves with what `answer` makes of
   * their rows (each part's, in order).
   */
  run<T>(parts: readonly ReadStatement[], answer: (rows: Rows[]) => T): Promise<T> {
    if (this.closed) return Promise.reject(new Error('The database connection is closed'));
    return new Promise<T>((resolve, reject) => {
      const done = (rows: Rows[]) => resolve(answer(rows));
      const read: Read = { parts, deadline: performance.now() + this.host.timeoutMs, resolve: done, reject };
      // an idle connection and no read waiting before this one: sent at once, without a wait timer
      // (a timer per read, set and cleared at once, was a measurable share of a read's CPU)
      const lane = this.queue.length === 0 && !this.unanswered && !this.closed ? this.lanes.find(idle) : undefined;
      if (lane) this.start(lane, read);
      else this.queue.push(read);
      this.dispatch();
    });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.looks.stop();
    const closed = new Error('The database connection is closed');
    for (const lane of this.lanes.splice(0)) {
      const inFlight = this.stop(lane);
      this.host.release(lane.client);
      inFlight?.reject(closed);
    }
    for (const read of this.queue.drain()) read.reject(closed);
  }

  /** Hands queued reads to idle connections; opens another when all are busy and the pool may grow. */
  private dispatch(): void {
    if (this.unanswered) return this.whileUnanswered();
    while (this.queue.length > 0 && !this.closed) {
      const lane = this.lanes.find(idle);
      if (!lane) break;
      const read = this.queue.shift()!;
      // its deadline came while it waited (the process was busy, so its timer has not run yet): not sent
      if (performance.now() >= read.deadline) read.reject(new DatabaseTimeoutError(this.host.timeoutMs));
      else this.start(lane, read);
    }
    if (this.queue.length === 0 || this.opener.busy || this.closed || this.lanes.length >= this.host.size) return;
    if (this.opener.due) this.opener.open();
    // none open and none may be opened yet (the database was unreachable a moment ago): 503 now
    else if (this.lanes.length === 0) this.rejectQueued(new DatabaseUnavailableError(false));
  }

  /**
   * The database stopped answering (a read went unanswered past its deadline, or an open waited out
   * its connect timeout): reads are answered 503 at once rather than wait for it, and connections
   * are opened in the background until one opens; then reads go on.
   */
  private whileUnanswered(): void {
    if (!this.opener.busy && !this.closed && this.lanes.length < this.host.size && this.opener.due) this.opener.open();
    this.rejectQueued(new DatabaseUnavailableError(false));
  }

  /**
   * The engine found the database not answering (a statement on its main connection went unanswered):
   * reads are answered 503 at once from now on, as when a read finds it, rather than each waiting out
   * its own deadline on a connection to the same database.
   */
  stoppedAnswering(): void {
    if (this.closed || this.unanswered) return;
    this.notAnswering();
    this.dispatch();
  }

  private notAnswering(): void {
    if (this.unanswered) return;
    this.unanswered = true;
    this.reportedDown = true;
    this.host.log('database: not answering reads; they are answered 503 until a read connection opens again');
    // idle connections to a database that does not answer would hold their next reads as long
    for (const lane of this.lanes.filter((l) => !l.read)) this.drop(lane);
    // and the main connection's next statement would hold the whole process as long
    this.host.notAnswering();
  }

  private opened(client: NativeClient): void {
    this.unanswered = false;
    if (this.reportedDown) this.host.log('database: read connections open again');
    this.reportedDown = false;
    const lane: Lane = { client };
    client.pq.on('readable', () => this.readable(lane));
    // watched from now on, idle or not (starting and stopping libuv's watcher around each read
    // cost system calls on every read); closing the connection stops it
    client.pq.startReader();
    this.lanes.push(lane);
    this.dispatch();
  }

  /** No connection is open and the open failed (see LaneOpener): the reads waiting get 503. */
  private openFailed(error: unknown, slow: boolean): void {
    if (slow) this.notAnswering();
    if (!this.reportedDown) this.host.log(`database: cannot open a read connection (${String((error as Error).message).trim()})`);
    this.reportedDown = true;
    this.rejectQueued(new DatabaseUnavailableError(false, { cause: error }));
  }

  private rejectQueued(error: Error): void {
    for (const read of this.queue.drain()) read.reject(error);
  }

  private start(lane: Lane, read: Read): void {
    const pq = lane.client.pq;
    // A connection cut while idle is let go by its watcher (readable) in a later turn of the event
    // loop; one cut a moment ago fails the read sent on it, which runs once more (failed). Only then is
    // the socket read first, twice (the backend's last message, which libpq, idle, takes as a
    // notice, then the end of the stream): looking before every read cost two system calls each time.
    if (pq.transactionStatus() === CONNECTION_BAD || (read.again && (!pq.consumeInput() || !pq.consumeInput()))) {
      this.drop(lane);
      this.queue.unshift(read);
      return;
    }
    const pipeline = new PipelinedRead(lane.client, read.parts);
    read.sentAt = performance.now();
    try {
      pipeline.send();
    } catch (error) {
      return this.failed(lane, read, pipeline, error);
    }
    // the answer is awaited on the lane (its socket is watched level-triggered: one already in wakes it at once)
    lane.read = { read, pipeline };
    this.looks.due(read.deadline);
  }

  private readable(lane: Lane): void {
    if (lane.settling) return this.settle(lane);
    if (!lane.read) {
      // idle: what the backend sends unasked (a notice, its last message before it is cut) is read
      // now, so the socket does not stay readable; the end of the stream drops the connection
      if (!lane.client.pq.consumeInput() || lane.client.pq.transactionStatus() === CONNECTION_BAD) this.drop(lane);
      return;
    }
    this.progress(lane);
  }

  /**
   * Takes what has come of the lane's read: answers it once all of it is in, fails it if it failed
   * or its connection broke (then dispatches). Answers whether the read is still in flight.
   */
  private progress(lane: Lane): boolean {
    const { read, pipeline } = lane.read!;
    const pq = lane.client.pq;
    let answered: boolean;
    try {
      if (!pq.consumeInput()) throw new Error(pq.errorMessage() || 'the connection was lost');
      answered = pipeline.advance();
    } catch (error) {
      this.stop(lane);
      this.failed(lane, read, pipeline, error);
      this.dispatch();
      return false;
    }
    if (!answered) return true;
    this.stop(lane);
    read.resolve(pipeline.rows);
    this.dispatch();
    return false;
  }

  /** Looks at every read in flight (ReadLooks); the earliest deadline of those still in flight. */
  private lookAll(): number {
    for (const lane of [...this.lanes]) {
      if (lane.read) this.look(lane);
      else if (lane.settling) this.settle(lane);
    }
    let next = Infinity;
    for (const lane of this.lanes) next = Math.min(next, lane.read?.read.deadline ?? lane.settling?.deadline ?? Infinity);
    return next;
  }

  /** The read's own look at its socket, and its deadline. */
  private look(lane: Lane): void {
    const inFlight = lane.read;
    if (!inFlight || !this.progress(lane) || performance.now() < inFlight.read.deadline) return;
    // no answer within the deadline: the statement is abandoned with its connection
    const { reported } = this.host.failure(new StatementDeadlinePassed(this.host.timeoutMs), lane.client);
    this.drop(lane);
    if (this.unansweredFor(inFlight.read)) this.notAnswering();
    inFlight.read.reject(reported);
    this.dispatch();
  }

  /** Stops watching the lane's read; answers the read that was in flight. */
  private stop(lane: Lane): Read | undefined {
    const inFlight = lane.read;
    if (!inFlight) return undefined;
    lane.read = undefined;
    return inFlight.read;
  }

  private failed(lane: Lane, read: Read, pipeline: PipelinedRead, error: unknown): void {
    const { reported, cut } = this.host.failure(error, lane.client);
    // the connection serves on only once the failed pipeline has ended (its Sync taken): until its
    // end has come, it is not idle (dropping it instead cost a new connection per failed read)
    const settled = cut ? 'broken' : pipeline.settle();
    if (settled === 'broken') this.drop(lane);
    else if (settled === 'pending') this.settleLater(lane, pipeline);
    if (!cut || read.again) return read.reject(reported);
    // a read changes nothing: once more, on another connection
    read.again = true;
    this.queue.unshift(read);
  }

  private settleLater(lane: Lane, pipeline: PipelinedRead): void {
    const deadline = performance.now() + this.host.timeoutMs;
    lane.settling = { pipeline, deadline };
    this.looks.due(deadline);
  }

  /** Takes what has come of a failed pipeline's end: the lane serves again once it is in, or is dropped. */
  private settle(lane: Lane): void {
    const { pipeline, deadline } = lane.settling!;
    const settled = lane.client.pq.consumeInput() ? pipeline.settle() : 'broken';
    if (settled === 'pending' && performance.now() < deadline) return;
    lane.settling = undefined;
    if (settled !== 'ready') this.drop(lane);
    this.dispatch();
  }

  /**
   * The read's statement went unanswered for a whole timeout, which a database that answers never
   * does (PostgreSQL cancels it sooner): not one sent late, with less time left, to a busy one.
   */
  private unansweredFor(read: Read): boolean {
    return read.deadline - (read.sentAt ?? read.deadline) >= this.host.timeoutMs - 1;
  }

  private drop(lane: Lane): void {
    const index = this.lanes.indexOf(lane);
    if (index < 0) return;
    this.lanes.splice(index, 1);
    this.stop(lane);
    lane.settling = undefined;
    this.host.release(lane.client);
  }
}
