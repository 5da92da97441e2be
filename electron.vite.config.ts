// `npm run build` (electron-vite build) writes out/main (the Electron shell), out/preload (the
// sandboxed bridge, CommonJS as sandboxed preloads must be) and out/renderer (the React page,
// served by the app:// protocol in Electron and by the loopback web host in a browser).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { viteAliases } from './scripts/path-aliases.mjs';

const root = import.meta.dirname;
// The import aliases (@registry/…, @desk/…: scripts/path-aliases.mjs), in each of the three builds.
const resolveAliases = { alias: viteAliases(root) };
const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { optionalDependencies: Record<string, string> };

export default defineConfig({
  main: {
    resolve: resolveAliases,
    build: {
      outDir: 'out/main',
      // Native and server-side modules stay in node_modules (better-sqlite3 must be rebuilt for Electron's ABI).
      // electron-vite externalizes only `dependencies`: the optional ones (keytar, pg-native) are
      // named too, or keytar and its Node-ABI binary would be copied into out/main/chunks and the
      // packaged app would load that instead of the Electron build the afterPack hook installs.
      externalizeDeps: { include: Object.keys(pkg.optionalDependencies) },
      // The desk service's utilityProcess, the sync engine's worker thread, its helper threads and
      // the certificate workers are entries of their own: out/main/desk-service.js, sync-worker.js,
      // sync-helper.js and certificate-worker.js (see electron/main/index.ts; the helpers are started
      // from the file beside sync-worker.js: sync/worker/page-reader.ts).
      rollupOptions: {
        input: {
          index: resolve(root, 'electron/main/index.ts'),
          'desk-service': resolve(root, 'electron/core/desk/process/entry.ts'),
          'sync-worker': resolve(root, 'electron/core/desk/sync/worker/entry.ts'),
          'sync-helper': resolve(root, 'electron/core/desk/sync/worker/helper-entry.ts'),
          'certificate-worker': resolve(root, 'electron/core/registry/certificates/pool-worker.ts'),
        },
      },
    },
  },
  preload: {
    resolve: resolveAliases,
    build: {
      outDir: 'out/preload',
      // The sandbox allows a preload to require only 'electron': bundle everything else in.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(root, 'electron/preload/index.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'renderer'),
    // From the root: every screen has an address of its own (app://desk/projects/1006), the files do not move.
    base: '/',
    // electron-vite's renderer preset sets base './' for production builds, over the line above; with
    // it a page opened at /projects/1006 asked for /projects/assets/… and stayed blank. This plugin
    // runs after the preset and puts the root back.
    plugins: [react(), { name: 'registry-desk:base-from-root', config: () => ({ base: '/' }) }],
    resolve: resolveAliases,
    build: {
      outDir: resolve(root, 'out/renderer'),
      emptyOutDir: true,
      // No inline scripts or data: URLs for scripts: the CSP forbids them.
      assetsInlineLimit: 0,
      rollupOptions: { input: resolve(root, 'renderer/index.html') },
    },
  },
});
