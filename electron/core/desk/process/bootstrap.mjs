// Starts the desk service process from its TypeScript source where there is no build of it (the
// web desk under tsx, the tests): registers tsx's loader, then imports the entry. The Electron app
// starts its built desk-service.js directly instead.
import { register } from 'tsx/esm/api';

register();
await import(new URL('./entry.ts', import.meta.url).href);
