// The history check's leaf replay (verification/leaf-replay.ts: download, check and hash every new
// leaf of the registry's log) on a thread of its own, so a first sync's replay runs on a core of its
// own beside the sync's own parsing and writing rather than taking turns with it on one thread
// (on a machine of two cores or more: helper-threads.ts).
// Only the leaves cross: the movements they record, page by page, which the sync's thread keeps in
// its connection's temporary table as before; nothing is kept for good before the check passes
// (history-check.ts). A small replay (a re-sync's new leaves) stays on the sync's thread, where
// starting a thread would cost more than it saves.
import { Worker, type MessagePort } from 'node:worker_threads';
import { LogVerificationError, type Get, type LogFailureKind } from '@shared/transparency/verifier';
import { replayLeavesHere, type LeafJob, type LeavesReplayed, type ReplayLeaves } from '@desk/verification/leaf-replay';
import { movementBuffers, type MovementColumns } from '@desk/verification/leaves';
import type { PageReaderThread } from '../context';
import type { WireError } from './protocol';
import { fromWireError, toWireError } from './wire-error';

/** Replays of at least this many leaves run on a thread of their own (a first sync's at --scale 10 has ~28,000). */
export const REPLAY_THREAD_LEAVES = 10_000;

/**
 * Pages of movements the thread may hand over before the sync's thread has kept them: while the
 * sync's thread is busy writing, the replay waits rather than piling its movements up in memory.
 */
const UNKEPT_PAGES = 4;

/**
 * The replay's heap: a few pages of 1,000 leaves parsed, and the first 2,000 kept for evidence. Its
 * young generation takes every page's short-lived strings and objects: at 8 MB a scale-100 replay
 * spent 14.0 s of its 161 s in 255 collections (load 17), at 16 MB 6.6 s of 83 s in 152, at 32 MB
 * 3.9 s in 104 but the desk's peak RSS rose from 300 to 316 MB (16 MB: 298 MB; bench/README.md).
 */
const REPLAY_LIMITS = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16 };

type ToReplay = { type: 'replay'; job: LeafJob } | { type: 'kept' };
type FromReplay =
  | { type: 'movements'; movements: MovementColumns }
  | { type: 'done'; replayed: LeavesReplayed }
  | { type: 'failed'; error: WireError; logKind?: LogFailureKind };

/** The replay thread's side: replays the one job it is sent over `port` through `get`, then is ended by the sync's thread. */
export function serveLeafReplay(port: MessagePort, get: Get): void {
  let unkept = 0;
  let waiting: (() => void)[] = [];
  // Each page is asked for only while few enough are unkept (the pages in flight still come in).
  const heldGet: Get = async (path) => {
    while (unkept >= UNKEPT_PAGES) await new Promise<void>((resolve) => waiting.push(resolve));
    return get(path);
  };
  const post = (message: FromReplay) => port.postMessage(message);
  port.on('message', (message: ToReplay) => {
    if (message.type === 'kept') {
      unkept--;
      // Every waiting ask looks again, not one: an ask woken while too many were still unkept waits
      // anew, and woken one per 'kept' the asks could outnumber the 'kept's still to come, leaving
      // the page the replay needs next asked for never (a first sync then hung with every thread asleep).
      const woken = waiting;
      waiting = [];
      for (const wake of woken) wake();
      return;
    }
    replayLeavesHere(heldGet)(message.job, (movements) => {
      unkept++;
      // (the columns' numbers handed over, not copied: the replay makes new ones for each page)
      port.postMessage({ type: 'movements', movements } satisfies FromReplay, movementBuffers(movements));
    }).then(
      (replayed) => post({ type: 'done', replayed }),
      (error: unknown) =>
        post({ type: 'failed', error: toWireError(error), ...(error instanceof LogVerificationError ? { logKind: error.kind } : {}) }),
    );
  });
}

/**
 * The check's leaf replay for `get`'s registry: on a thread started from `thread`'s script when the
 * replay has `fromLeaves` leaves or more, else on this thread.
 */
export function leavesOnItsOwnThread(thread: PageReaderThread, baseUrl: string, fromLeaves = REPLAY_THREAD_LEAVES) {
  return (get: Get): ReplayLeaves => {
    const here = replayLeavesHere(get);
    return (job, keep) => (job.to - job.from < fromLeaves ? here(job, keep) : replayOnThread(thread, baseUrl, job, keep));
  };
}

function replayOnThread(
  { script, workerData }: PageReaderThread,
  baseUrl: string,
  job: LeafJob,
  keep: (movements: MovementColumns) => void,
): Promise<LeavesReplayed> {
  const data = { ...workerData, leafReplay: { baseUrl } };
  const worker =
    'file' in script
      ? new Worker(script.file, { workerData: data, resourceLimits: REPLAY_LIMITS })
      : new Worker(new URL(script.bootstrapUrl), { workerData: { ...data, entryUrl: script.entryUrl } });
  return new Promise<LeavesReplayed>((resolve, reject) => {
    let settled = false;
    const settle = (end: () => void) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      end();
    };
    worker.on('message', (message: FromReplay) => {
      if (message.type === 'movements') {
        try {
          keep(message.movements);
          worker.postMessage({ type: 'kept' } satisfies ToReplay);
        } catch (error) {
          settle(() => reject(error instanceof Error ? error : new Error(String(error))));
        }
      } else if (message.type === 'done') settle(() => resolve(message.replayed));
      else {
        const { error, logKind } = message;
        settle(() => reject(logKind ? new LogVerificationError(logKind, error.message) : fromWireError(error)));
      }
    });
    worker.on('error', (error) => settle(() => reject(new Error(`the history replay's thread stopped: ${error.message}`))));
    worker.on('exit', () => settle(() => reject(new Error("the history replay's thread stopped"))));
    worker.postMessage({ type: 'replay', job } satisfies ToReplay);
  });
}
