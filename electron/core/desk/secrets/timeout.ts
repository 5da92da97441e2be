// Races a promise against a timer. Used around keychain calls that go over D-Bus: a Secret Service
// that accepts the connection and never answers would otherwise leave the caller waiting forever.
export class TimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`No answer within ${timeoutMs} ms`);
    this.name = 'TimeoutError';
  }
}

export function withTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    // unref: a pending timer must not be what keeps a CLI or test process alive.
    const timer = setTimeout(() => reject(new TimeoutError(timeoutMs)), timeoutMs);
    timer.unref();
    // The work's own rejection passes through as it is (whatever it was rejected with).
    work.finally(() => clearTimeout(timer)).then(resolve, reject);
  });
}
