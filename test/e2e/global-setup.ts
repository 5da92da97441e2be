// Builds the renderer once before the end-to-end run, so the web host serves the page as it is in
// the working tree (the host itself builds only when out/renderer is missing). Same settings as the
// renderer section of electron.vite.config.ts; only the renderer is built, not the Electron shell.
// Then the web desk and the registry server (out/web, scripts/build-web-desk.ts), which the
// fixtures start for every test.
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { buildWebDesk } from '../../scripts/build-web-desk';

export const PROJECT_ROOT = resolve(import.meta.dirname, '../..');

export default async function globalSetup(): Promise<void> {
  await build({
    configFile: false,
    logLevel: 'warn',
    root: resolve(PROJECT_ROOT, 'renderer'),
    base: './',
    plugins: [react()],
    build: {
      outDir: resolve(PROJECT_ROOT, 'out/renderer'),
      emptyOutDir: true,
      assetsInlineLimit: 0,
      rollupOptions: { input: resolve(PROJECT_ROOT, 'renderer/index.html') },
    },
  });
  await buildWebDesk();
}
