// The sync worker thread: runs the sync engine (electron/core/desk/sync/engine.ts) with its own
// connection to the desk cache, so the SQL and JSON work of a sync never blocks the main thread
// (IPC, the web host, menus) and its memory is bounded by the worker's own heap limit.
//
// The app's private key stays on the main thread: the worker's registry client asks the host for
// access tokens (get/grant/invalidate) over the message port, and never sees a JWT key.
import { parentPort, workerData } from 'node:worker_threads';
import type { Clock } from '@platform/clock';
import { transportFor } from '@desk/client/node-http';
import { createRegistryClient } from '@desk/client/registry-client';
import { createGrantCache } from '@desk/client/grant-cache';
import type { TokenGrant, TokenManager, TokenScope } from '@desk/client/tokens';
import { openDeskCache } from '@desk/cache';
import { checkpointWal } from '@desk/cache/deferred-checkpoint';
import { buildDeferredIndexesOn } from '@desk/cache/deferred-indexes';
import { DESK_CLIENT_SETTINGS } from '@desk/client-settings';
import { createSyncEngine } from '../engine';
import type { SyncEngine } from '../types';
import type { EngineState, HostToWorker, SyncWorkerData, WorkerToHost } from './protocol';
import { fromWireError, toWireError } from './wire-error';
import { servePageReader } from './page-reader';
import { leavesOnItsOwnThread, serveLeafReplay } from './replay-thread';
import { createHistoryCheck } from '@desk/verification/history-check';
import { transparencyGet } from '@desk/verification/transport';
import type { DeskCache } from '@desk/cache';
import type { InstallationRef, PageReaderThread } from '../context';

const port = parentPort;
if (!port) throw new Error('the sync worker must run in a worker thread');
const data = workerData as SyncWorkerData;
const post = (message: WorkerToHost) => port.postMessage(message);

// The host's clock, as an offset from this thread's Date.now(): each run brings it afresh, so a
// test clock moved forward on the host moves the worker too.
let clockOffsetMs = data.clockOffsetMs;
const clock: Clock = { now: () => Date.now() + clockOffsetMs };

let nextTokenRequest = 0;
const tokenRequests = new Map<number, { resolve: (value: string | TokenGrant) => void; reject: (error: Error) => void }>();
function askHost(op: 'get' | 'grant' | 'appJwt', scope?: TokenScope): Promise<string | TokenGrant> {
  const id = ++nextTokenRequest;
  return new Promise((resolve, reject) => {
    tokenRequests.set(id, { resolve, reject });
    post({ type: 'token', id, op, ...(scope ? { scope } : {}) });
  });
}
// Checkpoints asked of the host, settled once made: here ('checkpoint-here') or by a worker of the host's ('checkpoint-done').
let nextCheckpoint = 0;
const checkpoints = new Map<number, () => void>();
function askHostToCheckpoint(): Promise<void> {
  const id = ++nextCheckpoint;
  return new Promise((resolve) => {
    checkpoints.set(id, resolve);
    post({ type: 'checkpoint', id });
  });
}
/** Checkpoint `id` is made: the load that asked for it gets its automatic checkpoints back. */
function checkpointMade(id: number): void {
  checkpoints.get(id)?.();
  checkpoints.delete(id);
}

// The host's grants, kept here by the rules the host's manager keeps them by (grant-cache.ts):
// asking the host for the token of every request was a round trip through the main thread per
// request (6,300 of them for a first sync through the seed interface at --scale 30). Requests of one
// scope sent side by side (a step's calls asked ahead beside another's, sync/prefetch.ts) share one
// ask of the host. A refused token is invalidated here and on the host alike, so the next request
// asks again; when the host's tokens are cleared (the connection's key re-imported) it says so, and
// these go too.
const grants = createGrantCache({ obtain: (scope) => askHost('grant', scope) as Promise<TokenGrant>, clock });
const tokens: TokenManager = {
  get: async (scope) => (await grants.grant(scope)).token,
  grant: grants.grant,
  appJwt: () => askHost('appJwt') as Promise<string>,
  invalidate: (scope, token) => {
    grants.invalidate(scope, token);
    post({ type: 'token-invalidate', scope, ...(token !== undefined ? { token } : {}) });
  },
  clear: () => {
    grants.clear();
    post({ type: 'token-clear' });
  },
  // Nothing on this thread keeps a copy of these grants.
  onClear: () => () => {},
};

/** The registry's history check (the engine's default), its long replays on a thread of their own when `thread` is given. */
const historyCheck = (cache: DeskCache, thread: PageReaderThread | undefined) =>
  createHistoryCheck({
    baseUrl: data.baseUrl,
    cache,
    clock,
    ...(thread ? { leaves: leavesOnItsOwnThread(thread, data.baseUrl, data.replayThreadLeaves) } : {}),
  });

/** The engine's thread: the cache, the client and the engine, driven by the host's messages. */
const serveEngine = () => {
  const cache = openDeskCache(data.cacheFile, {
    clock,
    // A first sync's load is checkpointed once the run has answered: by this thread, when the host
    // finds it idle (checkpoint-here, below), or by a worker the host starts.
    checkpointElsewhere: () => askHostToCheckpoint(),
  });
  // node:http(s) for every registry: a third of fetch's CPU per request, one inflate per compressed answer.
  const client = createRegistryClient({
    baseUrl: data.baseUrl,
    tokens,
    clock,
    transport: transportFor(data.baseUrl),
    ...DESK_CLIENT_SETTINGS,
  });
  let installations: InstallationRef[] = [];
  // A first sync's feed pages are prepared, and a long history replayed, by threads started from this
  // same script, each where the machine has a core free for it (the host decides: helper-threads.ts).
  const helper: PageReaderThread | undefined = data.script ? { script: data.script, workerData: data } : undefined;
  const engine: SyncEngine = createSyncEngine({
    client,
    cache,
    clock,
    installations: () => installations,
    ...(data.tuning ? { tuning: data.tuning } : {}),
    history: data.verifyHistory === false ? false : historyCheck(cache, data.noReplayThread ? undefined : helper),
    ...(helper && !data.noPageReader ? { pageReaderThread: helper } : {}),
  });

  function state(): EngineState {
    const { running, progress, lastError, online } = engine.status();
    return { running, progress, lastError, online };
  }

  engine.subscribe((event) => post({ type: 'event', event, state: state() }));

  port.on('message', (message: HostToWorker) => {
    switch (message.type) {
      case 'run': {
        clockOffsetMs = message.clockOffsetMs;
        installations = message.installations;
        const running = engine.run(message.resources);
        post({ type: 'state', state: state() });
        running.then(
          (result) => post({ type: 'run-done', id: message.id, result }),
          (error: unknown) => post({ type: 'run-failed', id: message.id, error: toWireError(error) }),
        );
        break;
      }
      case 'token-reply': {
        const waiting = tokenRequests.get(message.id);
        tokenRequests.delete(message.id);
        if (!waiting) break;
        if (message.ok) waiting.resolve(message.value);
        else waiting.reject(fromWireError(message.error));
        break;
      }
      case 'tokens-cleared':
        grants.clear();
        break;
      case 'checkpoint-done':
        checkpointMade(message.id);
        break;
      case 'checkpoint-here':
        // No run is left: the load's deferred indexes built on this connection (its page cache is
        // the next run's), then the WAL checkpointed on a connection of its own, both on this thread.
        // Either may fail on a cache busy past the busy timeout; the other is still made. Indexes
        // not built wait for the next run; a checkpoint not made, for automatic ones.
        try {
          cache.write.buildDeferredIndexes();
        } catch {
          // Left in deferred_indexes.
        }
        try {
          checkpointWal(data.cacheFile);
        } catch {
          // Not made.
        }
        checkpointMade(message.id);
        post({ type: 'checkpointed', id: message.id });
        break;
      case 'close':
        // Transactions are synchronous, so none is open between messages. When no run is going the
        // cache closes cleanly here; otherwise the host terminates the thread, better-sqlite3 closes
        // the connection as the thread ends, and the run's staged rows wait for the next run.
        engine.stop();
        if (!engine.status().running) cache.close();
        post({ type: 'closed' });
        break;
    }
  });
};

// A worker started only to build a first sync's deferred indexes and checkpoint the cache's WAL
// after its load (deferred-indexes.ts, deferred-checkpoint.ts) does that and ends; one started by
// the sync's thread to prepare a first sync's feed pages (page-reader.ts) does that, and so does
// one started to replay a long history (replay-thread.ts); every other serves the engine.
// (the load's deferred indexes first, on the checkpoint's connection: it then copies them too)
if (data.checkpointOnly) checkpointWal(data.cacheFile, buildDeferredIndexesOn);
else if (data.pageReader) servePageReader(port, data.pageReader.examinerRead);
else if (data.leafReplay) serveLeafReplay(port, transparencyGet(data.leafReplay.baseUrl));
else serveEngine();
