// When the read pool looks at its reads in flight itself, besides libuv's word that an answer is on
// the socket: a reset connection reaches libpq's watcher as a failed poll, which pg-native's binding
// drops, and a database that stops answering sends nothing at all. One timer serves every read in
// flight: a timer per read, set when it is sent and cleared when it is answered a moment later, was
// a measurable share of a read's CPU on a busy process.

export class ReadLooks {
  private timer: NodeJS.Timeout | undefined;
  /** When the armed timer fires (performance.now() time); Infinity when none is armed. */
  private at = Infinity;

  /**
   * `lookAll` looks at every read in flight (answering those answered, failing those past their
   * deadline) and returns the earliest deadline of those still in flight (Infinity: none).
   */
  constructor(
    private readonly everyMs: number,
    private readonly lookAll: () => number,
  ) {}

  /** A read is in flight until `deadline`: looked at within `everyMs`, and at its deadline. */
  due(deadline: number): void {
    const at = Math.min(performance.now() + this.everyMs, deadline);
    // the armed timer comes first: it looks at this read too (deadlines are later than `everyMs`
    // unless the statement timeout is shorter, so the timer is almost never armed again here)
    if (this.timer && this.at <= at) return;
    clearTimeout(this.timer);
    this.at = at;
    this.timer = setTimeout(() => this.tick(), Math.max(at - performance.now(), 0));
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.at = Infinity;
  }

  private tick(): void {
    this.timer = undefined;
    this.at = Infinity;
    const next = this.lookAll();
    if (next < Infinity) this.due(next);
  }
}
