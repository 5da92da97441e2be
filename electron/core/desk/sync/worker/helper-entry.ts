// The replay thread's own entry where the sync worker runs from its TypeScript source (tests, the
// web desk under tsx): only the replay's modules are compiled for it, not the whole sync worker's.
// A built app starts its replay thread from sync-worker.js (entry.ts) instead.
import { parentPort, workerData } from 'node:worker_threads';
import { transparencyGet } from '@desk/verification/transport';
import { serveLeafReplay } from './replay-thread';

const { leafReplay } = workerData as { leafReplay: { baseUrl: string } };
if (!parentPort) throw new Error('the history replay must run in a worker thread');
serveLeafReplay(parentPort, transparencyGet(leafReplay.baseUrl));
