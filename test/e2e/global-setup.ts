// Builds the renderer once before the end-to-end run, so the web host serves the page as it is in
// the working tree (the host itself builds only when out/renderer is missing). Same settings as the
// renderer section of electron.vite.config.ts; only the renderer is built, not the Electron shell.
// Then the web desk and the registry server (out/web, scripts/build-web-desk.ts), which the
// fixtures start for every test, and the demo registry (scale 1) they start from: seeded once here
// by the registry's own `seed-demo` command, copied into each test's data folder (fixtures.ts), and
// the desk folder of a first start that synced a copy of it (desk-template.ts).
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { buildWebDesk } from '@scripts/build-web-desk';
import { viteAliases } from '@scripts/path-aliases.mjs';
import { buildDeskTemplate } from './desk-template';
import { DEMO_REGISTRY_TEMPLATE, PROJECT_ROOT } from './template';

export default async function globalSetup(): Promise<void> {
  await build({
    configFile: false,
    logLevel: 'warn',
    root: resolve(PROJECT_ROOT, 'renderer'),
    // From the root: every screen has an address of its own (/projects/1006), the files do not move.
    base: '/',
    plugins: [react()],
    resolve: { alias: viteAliases(PROJECT_ROOT) },
    build: {
      outDir: resolve(PROJECT_ROOT, 'out/renderer'),
      emptyOutDir: true,
      assetsInlineLimit: 0,
      rollupOptions: { input: resolve(PROJECT_ROOT, 'renderer/index.html') },
    },
  });
  await buildWebDesk();
  rmSync(DEMO_REGISTRY_TEMPLATE, { recursive: true, force: true });
  execFileSync(process.execPath, [join(PROJECT_ROOT, 'out/web/admin.js'), 'seed-demo', '--data', DEMO_REGISTRY_TEMPLATE, '--scale', '1'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await buildDeskTemplate();
}
