// Notices by itself when the active registry goes away and when it comes back, so the offline
// banner appears and clears without anyone pressing Sync. A probe is one cheap request to the
// registry's base address: any HTTP answer (even 404) means reachable, only a network failure or a
// timeout means not. Online it probes every `onlineIntervalMs`; offline it backs off from
// `minBackoffMs`, doubling up to `maxBackoffMs`, and resets once the registry answers again.
// Timers are injected (tests drive them without sleeping); results go to the online tracker.

export interface ProbeTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemTimers: ProbeTimers = {
  setTimeout: (callback, ms) => {
    const timer = setTimeout(callback, ms);
    timer.unref(); // a pending probe never keeps the process alive
    return timer;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface ReachabilityProbeOptions {
  /** One probe: resolves true when the registry answered at all. Never rejects. */
  probe(): Promise<boolean>;
  /** The tracker's report: the banner follows it through `online.changed` events. */
  report(reachable: boolean): void;
  /** Whether the registry is currently believed reachable (calls and syncs report too). */
  isOnline(): boolean;
  timers?: ProbeTimers;
  onlineIntervalMs?: number;
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

export interface ReachabilityProbe {
  /** The delay before the next probe (for tests and diagnostics), or null when stopped. */
  readonly nextDelayMs: number | null;
  /** Probes at once (e.g. when a call just failed), then carries on with the schedule. */
  probeNow(): void;
  stop(): void;
}

export const PROBE_DEFAULTS = { onlineIntervalMs: 10_000, minBackoffMs: 2_000, maxBackoffMs: 60_000 };

export function startReachabilityProbe(options: ReachabilityProbeOptions): ReachabilityProbe {
  const timers = options.timers ?? systemTimers;
  const onlineIntervalMs = options.onlineIntervalMs ?? PROBE_DEFAULTS.onlineIntervalMs;
  const minBackoffMs = options.minBackoffMs ?? PROBE_DEFAULTS.minBackoffMs;
  const maxBackoffMs = options.maxBackoffMs ?? PROBE_DEFAULTS.maxBackoffMs;
  let backoffMs = minBackoffMs;
  let handle: unknown = null;
  let nextDelayMs: number | null = null;
  let stopped = false;
  let running = false;

  function schedule(ms: number): void {
    if (stopped) return;
    if (handle !== null) timers.clearTimeout(handle);
    nextDelayMs = ms;
    handle = timers.setTimeout(() => {
      handle = null;
      void run();
    }, ms);
  }

  async function run(): Promise<void> {
    if (stopped || running) return;
    running = true;
    let reachable: boolean;
    try {
      reachable = await options.probe();
    } catch {
      reachable = false;
    }
    running = false;
    if (stopped) return;
    options.report(reachable);
    if (reachable) {
      backoffMs = minBackoffMs;
      schedule(onlineIntervalMs);
    } else {
      schedule(backoffMs);
      backoffMs = Math.min(maxBackoffMs, backoffMs * 2);
    }
  }

  schedule(options.isOnline() ? onlineIntervalMs : minBackoffMs);
  return {
    get nextDelayMs() {
      return stopped ? null : nextDelayMs;
    },
    probeNow() {
      if (handle !== null) timers.clearTimeout(handle);
      handle = null;
      void run();
    },
    stop() {
      stopped = true;
      nextDelayMs = null;
      if (handle !== null) timers.clearTimeout(handle);
      handle = null;
    },
  };
}

/** A probe of `baseUrl` with `fetch`: any answer within `timeoutMs` is reachable. */
export function httpProbe(baseUrl: string, fetchImpl: typeof fetch = fetch, timeoutMs = 5_000): () => Promise<boolean> {
  return async () => {
    // Our own timer, cleared with the answer: AbortSignal.timeout() would stay armed for the whole
    // timeout after it, outliving a connection closed in the meantime.
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const response = await fetchImpl(`${baseUrl.replace(/\/$/, '')}/openapi.json`, {
        method: 'HEAD',
        signal: controller.signal,
      });
      await response.body?.cancel();
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  };
}
