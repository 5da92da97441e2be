// A read's statements sent to PostgreSQL together, in libpq's pipeline mode: every statement of the
// read, each after its preparation when it is not prepared on the connection yet, then one Sync, in
// one write. The backend flushes its answers at the Sync, so they come back together too: one round
// trip for the lot, where statements sent one after another cost one each (and a first use, its
// preparation, one more). Behind a pooler in transaction mode the commands up to the Sync are one
// implicit transaction, so they stay on one server connection; they are unnamed statements there.
//
// libpq hands the results over in order: each command's result, then a null; after the last, the
// Sync's. A command that fails answers an error, every command after it is answered "aborted", and
// the Sync ends the failure. Nothing here waits on the socket: `advance` takes what has come.
import type { NativeClient } from './postgres-connection';
import type { ReadStatement, Rows } from './postgres-read-types';

interface Command {
  part: ReadStatement;
  /** The part's index in the read (its rows' place). */
  index: number;
  /** The part's preparation, not the part itself. */
  preparation: boolean;
}

export class PipelinedRead {
  private readonly commands: Command[] = [];
  /** The command whose result comes next (commands.length: the Sync's). */
  private next = 0;
  /** The next command's result was taken; its null comes next. */
  private taken = false;
  /** The Sync was sent: the pipeline ends by itself. */
  private synced = false;
  /** After a failure, the preparations not run were forgotten (settle). */
  private forgotten = false;
  /** Each part's rows, in the read's order. */
  readonly rows: Rows[];

  constructor(
    private readonly client: NativeClient,
    private readonly parts: readonly ReadStatement[],
  ) {
    this.rows = parts.map(() => []);
  }

  /** Sends the parts (each after its preparation, when it needs one) and the Sync; throws if one cannot be sent. */
  send(): void {
    const pq = this.client.pq;
    if (!pq.enterPipelineMode()) throw new Error(pq.errorMessage() || 'the connection cannot enter pipeline mode');
    this.parts.forEach((part, index) => {
      if (part.prepare?.(this.client)) this.commands.push({ part, index, preparation: true });
      if (!part.send(this.client)) throw new Error(pq.errorMessage() || 'the statement could not be sent');
      this.commands.push({ part, index, preparation: false });
    });
    if (!pq.pipelineSync()) throw new Error(pq.errorMessage() || 'the statements could not be sent');
    this.synced = true;
  }

  /**
   * Takes the results that have come, without waiting: true once every part's rows and the Sync are
   * in (the connection is then out of pipeline mode, ready for another read). Throws at a failed
   * command, with its error as the handle's current result, whose fields the caller reads.
   */
  advance(): boolean {
    const pq = this.client.pq;
    for (;;) {
      if (pq.isBusy()) return false;
      const got = pq.getResult();
      if (this.next === this.commands.length) {
        if (got && pq.resultStatus() === 'PGRES_PIPELINE_SYNC') return this.ended();
        throw new Error(pq.resultErrorMessage() || pq.errorMessage() || 'the statements were answered without their end');
      }
      if (got) {
        this.take();
      } else if (this.taken) {
        this.next += 1;
        this.taken = false;
      } else {
        throw new Error(pq.errorMessage() || 'a statement ended without an answer');
      }
    }
  }

  /**
   * After a failure: forgets the preparations not answered as done (once), then takes what has come
   * of the rest of the pipeline (a failed one ends at its Sync as well). Answers `ready` once the
   * Sync is in (the connection serves another read), `pending` while the rest is still on its way
   * (the backend flushes an error at once and its Sync's answer after it: they may come apart), and
   * `broken` when the connection cannot serve on: then the caller drops it. Called again as more comes.
   */
  settle(): 'ready' | 'pending' | 'broken' {
    if (!this.forgotten) {
      this.forgotten = true;
      for (const command of this.commands.slice(this.taken ? this.next + 1 : this.next)) {
        if (command.preparation) command.part.unprepared?.(this.client);
      }
    }
    if (!this.synced) return 'broken';
    const pq = this.client.pq;
    // at most each command's result and null, then the Sync's
    for (let left = 2 * this.commands.length + 1; left > 0; left--) {
      if (pq.isBusy()) return 'pending';
      if (pq.getResult() && pq.resultStatus() === 'PGRES_PIPELINE_SYNC') return pq.exitPipelineMode() ? 'ready' : 'broken';
    }
    return 'broken';
  }

  private take(): void {
    const pq = this.client.pq;
    const status = pq.resultStatus();
    if (status === 'PGRES_FATAL_ERROR' || status === 'PGRES_PIPELINE_ABORTED') {
      throw new Error(pq.resultErrorMessage() || pq.errorMessage() || 'the statement was not run');
    }
    const command = this.commands[this.next]!;
    this.taken = true;
    if (command.preparation) return;
    const reader = command.part.reader;
    this.rows[command.index] = reader ? reader.read(pq) : this.client._consumeQueryResults(pq).rows;
  }

  private ended(): true {
    const pq = this.client.pq;
    if (!pq.exitPipelineMode()) throw new Error(pq.errorMessage() || 'the connection cannot leave pipeline mode');
    return true;
  }
}
