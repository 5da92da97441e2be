// The reads waiting for a read connection (postgres-read-pool.ts), in the order they were asked.
// Each carries its deadline, counted from when it was asked; a timer answers it there even if no
// connection frees up or opens by then (every connection busy on a frozen database, or the one being
// opened not answering), so waiting in line never adds to the time a read may take.

/** What the queue needs of a read. */
export interface QueuedRead {
  /** performance.now() by which the read is answered, whatever happens. */
  readonly deadline: number;
  /** The read's timer while it waits (set and cleared here only). */
  waitTimer?: NodeJS.Timeout;
}

export class ReadQueue<R extends QueuedRead> {
  private readonly reads: R[] = [];

  /** `expired` answers a read whose deadline came while it waited; it is already out of the queue. */
  constructor(private readonly expired: (read: R) => void) {}

  get length(): number {
    return this.reads.length;
  }

  /** Last in line (a read just asked). */
  push(read: R): void {
    this.reads.push(read);
    this.arm(read);
  }

  /** First in line (a read taken out and put back: it was asked before every other waiting). */
  unshift(read: R): void {
    this.reads.unshift(read);
    this.arm(read);
  }

  /** Takes the first in line. */
  shift(): R | undefined {
    const read = this.reads.shift();
    if (read) this.disarm(read);
    return read;
  }

  /** Takes every read in line. */
  drain(): R[] {
    const reads = this.reads.splice(0);
    for (const read of reads) this.disarm(read);
    return reads;
  }

  private arm(read: R): void {
    this.disarm(read);
    read.waitTimer = setTimeout(
      () => {
        read.waitTimer = undefined;
        const index = this.reads.indexOf(read);
        if (index < 0) return;
        this.reads.splice(index, 1);
        this.expired(read);
      },
      Math.max(read.deadline - performance.now(), 0),
    );
  }

  private disarm(read: R): void {
    if (read.waitTimer === undefined) return;
    clearTimeout(read.waitTimer);
    read.waitTimer = undefined;
  }
}
