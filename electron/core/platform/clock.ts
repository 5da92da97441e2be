// Time comes from here, never from Date.now() in business code, so that expiry is testable
// without sleeping.
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that follows the system clock plus an offset the test (or the operator) moves forward. */
export class AdjustableClock implements Clock {
  private offsetMs = 0;
  constructor(private readonly base: Clock = systemClock) {}
  now(): number {
    return this.base.now() + this.offsetMs;
  }
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new Error('the clock only moves forward');
    this.offsetMs += ms;
  }
  get offset(): number {
    return this.offsetMs;
  }
}

/** A clock fixed at one instant until moved: for unit tests. */
export class ManualClock implements Clock {
  constructor(private current: number) {}
  now(): number {
    return this.current;
  }
  set(ms: number): void {
    this.current = ms;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

export const iso = (ms: number): string => new Date(ms).toISOString();
