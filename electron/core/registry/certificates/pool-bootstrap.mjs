// Starts a certificate worker from its TypeScript source where there is no build of it (the web
// desk under tsx, the tests): registers tsx's loader in this thread, then imports the entry.
// A bundled app (electron-vite) starts its built certificate-worker.js directly instead.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entryUrl);
