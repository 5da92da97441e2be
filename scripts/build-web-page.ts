// Builds the renderer (out/renderer) for the web host, so it serves the page as it is in the working
// tree (the host itself builds only when out/renderer is missing). Same settings as the renderer
// section of electron.vite.config.ts; only the renderer is built, not the Electron shell.
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { viteAliases } from './path-aliases.mjs';

const root = resolve(import.meta.dirname, '..');

export async function buildWebPage(): Promise<void> {
  await build({
    configFile: false,
    logLevel: 'warn',
    root: resolve(root, 'renderer'),
    // From the root: every screen has an address of its own (/projects/1006), the files do not move.
    base: '/',
    plugins: [react()],
    resolve: { alias: viteAliases(root) },
    build: {
      outDir: resolve(root, 'out/renderer'),
      emptyOutDir: true,
      assetsInlineLimit: 0,
      rollupOptions: { input: resolve(root, 'renderer/index.html') },
    },
  });
}
