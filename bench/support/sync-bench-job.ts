// What the sync bench asks its child process to do (a job) and what the child answers (a result),
// and how the child measures itself.
import { readFileSync } from 'node:fs';
import { systemClock } from '@platform/clock';
import { createTokenManager } from '@desk/client/tokens';
import type { InstallationRef } from '@desk/sync/context';

export interface ChildJob {
  mode: 'sync' | 'floor' | 'feedFloor' | 'poll';
  /** The sync: from the changes feed when the registry offers it (false: the seed interface only). */
  feed?: boolean;
  /**
   * The sync's runs after the first, in the same desk (worker): 'again' with nothing changed,
   * 'changes' after 100 project changes written into `registryFile` (as the back office would).
   */
  resyncs?: ('again' | 'changes')[];
  registryFile?: string;
  /** Polling: desks, each asking the feed from `cursor` every `intervalMs` for `durationMs`. */
  poll?: { desks: number; intervalMs: number; durationMs: number; cursor: string };
  url: string;
  appId: string;
  privateKeyPem: string;
  cacheFile: string;
  installations: InstallationRef[];
  /** out/main/sync-worker.js, built by the parent before the runs. */
  workerFile: string;
  /** The feed's floor only: also replay the transparency log (bench/support/log-replay-floor.ts). */
  replayLog?: boolean;
  /** Say on stderr when the first sync has ended (the network bench counts its bytes). */
  markFirstSync?: boolean;
}

/** The line a child writes on stderr when its first sync has ended (`markFirstSync`). */
export const FIRST_SYNC_MARK = '@@sync-bench: first sync done';
export interface ChildResult {
  wallMs: number;
  /** CPU time (user + system) of the child's threads over `wallMs`: on a shared machine, the figure that holds still. */
  cpuMs?: number;
  /** CPU time of the parent (the registry's server) while the child ran, its re-syncs included (set by the parent). */
  registryCpuMs?: number;
  maxRssMb: number;
  /** Requests made (the floor's; the sync's worker makes its own and is not counted). */
  requests: number;
  /** Event-loop delay of the main thread during the sync (ms). */
  mainThreadStallMs?: { p99: number; max: number };
  rows: number;
  ok: boolean;
  error?: string;
  /** Wall time of each re-sync of `resyncs`. */
  resyncMs?: number[];
  /** How long the first sync's deferred indexes and checkpoint ran on after it (on the sync's thread, idle by then). */
  checkpointMs?: number;
}

/** CPU time (user + system, every thread of this process) since `start`, in ms. */
export function cpuMsSince(start: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}

/**
 * This process's own peak RSS (MB). Not resourceUsage().maxRSS: on Linux a child's ru_maxrss starts
 * from its parent's RSS when it was forked (kept across exec), so the child of a bench process that
 * serves a --scale 100 registry reported that process's RSS (up to 517 MB) whenever it was the
 * larger. /proc/self/status's VmHWM is the peak of this process's own memory since exec.
 */
export function peakRssMb(): number {
  try {
    const hwm = /^VmHWM:\s*(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Number(hwm[1]) / 1024;
  } catch {
    // not Linux: the OS's own figure
  }
  return process.resourceUsage().maxRSS / 1024;
}

/** The job's tokens, asked for with its app's key as the desk asks for them. */
export function jobTokens(job: ChildJob) {
  return createTokenManager({ baseUrl: job.url, appId: job.appId, loadPrivateKey: async () => job.privateKeyPem, clock: systemClock });
}
