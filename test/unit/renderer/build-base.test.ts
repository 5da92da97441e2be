// The renderer's files load from the root in the production build (`npm start`, `npm run build`):
// electron-vite's renderer preset makes the base './', so a page opened or reloaded at
// /projects/1006 asked for /projects/assets/index-….js, got the page again and stayed blank (the
// end-to-end tests build the renderer with plain Vite, which keeps '/', so they never saw it).
import { RendererConfigFactory } from 'electron-vite';
import { expect, it } from 'vitest';
import { resolveConfig } from 'vite';
import config from '../../../electron.vite.config';

it('builds the renderer with its files at the root, as electron-vite resolves it for production', async () => {
  // The renderer section with electron-vite's own plugins in front, as `electron-vite build` makes it.
  const renderer = await new RendererConfigFactory(
    config.renderer!,
    { mode: 'production', configFile: false },
    { root: process.cwd() },
  ).build();
  const resolved = await resolveConfig({ ...renderer, configFile: false }, 'build', 'production');
  expect(resolved.base).toBe('/');
});
