// Starts the desk service process from its TypeScript source where there is no build of it (the
// web desk under tsx, the tests): registers tsx's loader, then imports the entry. The Electron app
// starts its built desk-service.js directly instead.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

// The repository's tsconfig by its place, not the working directory's: its `paths` are the import
// aliases (@registry/…, scripts/path-aliases.mjs), wherever this process was started from.
register({ tsconfig: fileURLToPath(new URL('../../../../tsconfig.json', import.meta.url)) });
await import(new URL('./entry.ts', import.meta.url).href);
