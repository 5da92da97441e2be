// Starts the sync worker from its TypeScript source where there is no build of it (the web desk
// under tsx, tests under vitest): registers tsx's loader in this thread, then imports the entry.
// A bundled app (electron-vite) starts its built sync-worker.js directly instead.
import { fileURLToPath } from 'node:url';
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

// The repository's tsconfig by its place, not the working directory's: its `paths` are the import
// aliases (@registry/…, scripts/path-aliases.mjs), wherever this process was started from.
register({ tsconfig: fileURLToPath(new URL('../../../../../tsconfig.json', import.meta.url)) });
await import(workerData.entryUrl);
