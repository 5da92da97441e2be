// Builds the renderer (out/renderer) for the web host, so it serves the page as it is in the working
// tree (the host itself builds only when out/renderer is missing). Same settings as the renderer
// section of electron.vite.config.ts; only the renderer is built, not the Electron shell.
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { buildInputsDigest, buildIsCurrent, writeBuildStamp } from './build-stamp';
import { viteAliases } from './path-aliases.mjs';

const root = resolve(import.meta.dirname, '..');
const outDir = resolve(root, 'out/renderer');
/** Where the page's sources are (its stamp's digest covers these folders). */
const SOURCE_FOLDERS = ['renderer', 'shared'];

export async function buildWebPage(): Promise<void> {
  const digest = buildInputsDigest(root, SOURCE_FOLDERS);
  await build({
    configFile: false,
    logLevel: 'warn',
    root: resolve(root, 'renderer'),
    // From the root: every screen has an address of its own (/projects/1006), the files do not move.
    base: '/',
    plugins: [react()],
    resolve: { alias: viteAliases(root) },
    build: {
      outDir,
      emptyOutDir: true,
      assetsInlineLimit: 0,
      rollupOptions: { input: resolve(root, 'renderer/index.html') },
    },
  });
  writeBuildStamp(outDir, digest);
}

/** Builds out/renderer unless it already holds a build of the sources as they are now (scripts/build-stamp.ts). */
export async function buildWebPageUnlessCurrent(): Promise<'built' | 'current'> {
  if (buildIsCurrent(outDir, [resolve(outDir, 'index.html')], buildInputsDigest(root, SOURCE_FOLDERS))) return 'current';
  await buildWebPage();
  return 'built';
}
