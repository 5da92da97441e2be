// A promise settled from outside (Promise.withResolvers, which Node 20 lacks), and the value it was
// resolved with, for a caller that must compare it later. Its rejection never counts as unhandled:
// the promises made here are awaited in their turn, and a failure may be seen first elsewhere.

export interface Deferred<T> {
  promise: Promise<T>;
  /** What it was resolved with (null until then; the first value stands). */
  readonly settled: T | null;
  resolve(value: T): void;
  reject(error: Error): void;
}

export function deferred<T>(): Deferred<T> {
  let resolvePromise!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolvePromise = res;
    reject = rej;
  });
  promise.catch(() => {});
  let settled: T | null = null;
  return {
    promise,
    get settled() {
      return settled;
    },
    resolve(value: T) {
      settled ??= value;
      resolvePromise(value);
    },
    reject,
  };
}
