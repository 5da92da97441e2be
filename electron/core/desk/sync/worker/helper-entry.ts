// The entry of the sync worker's helper threads: a first sync's page reader (page-reader.ts) and a
// long history's replay (replay-thread.ts). It loads only their modules, not the engine's: a thread
// started from the whole sync worker (entry.ts) evaluated the engine and the cache as well, and
// started with 6 MB more RSS and twice the CPU (0.35 s against 0.17 s; bench/README.md, sync),
// and both helpers are alive at a first sync's memory peak. Built, it is sync-helper.js beside
// sync-worker.js; from source it is started through tsx-bootstrap.mjs.
import { parentPort, workerData } from 'node:worker_threads';
import { transparencyGet } from '@desk/verification/transport';
import { servePageReader } from './page-reader';
import { serveLeafReplay } from './replay-thread';

const data = workerData as { pageReader?: { examinerRead: boolean }; leafReplay?: { baseUrl: string } };
if (!parentPort) throw new Error("the sync worker's helper must run in a worker thread");
if (data.pageReader) servePageReader(parentPort, data.pageReader.examinerRead);
else if (data.leafReplay) serveLeafReplay(parentPort, transparencyGet(data.leafReplay.baseUrl));
else throw new Error("the sync worker's helper was started without a job");
