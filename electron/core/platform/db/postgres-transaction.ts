// How a transaction that collided is run again.

/** How many times a transaction is run before its serialization failure is reported. */
export const MAX_TRANSACTION_ATTEMPTS = 20;

const pause = new Int32Array(new SharedArrayBuffer(4));
/**
 * Before running a transaction again: a random pause, up to 1, 2, 4 … 64 ms as attempts grow, so
 * that processes which keep colliding (on a loaded machine, one slow transaction against a stream
 * of fast ones) stop doing so. Blocking is what this engine does anyway: the process serves one
 * request at a time.
 */
export function backOff(attempt: number): void {
  Atomics.wait(pause, 0, 0, Math.random() * 2 ** Math.min(attempt - 1, 6));
}
