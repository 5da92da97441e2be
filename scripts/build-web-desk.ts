// `npm run build:web` writes out/web: the web desk (the loopback web host and the desk service with
// its sync and certificate workers) and the registry's command-line tools (`serve`, `admin`, `verify`),
// bundled for Node. Run from source through tsx, each of those processes spends ~2 s compiling and
// loading hundreds of modules at every start; bundled, well under one. The end-to-end tests start a
// desk (and often a registry) per test and the CLI tests run dozens of commands, so they run these
// (built first by test/e2e/global-setup.ts and test/support/build-node-bundles.ts). Dependencies
// stay in node_modules (native addons, pdfkit's font files), except BUNDLED_PACKAGES.
import { resolve } from 'node:path';
import { build } from 'vite';
import { viteAliases } from './path-aliases.mjs';
import { buildInputsDigest, buildIsCurrent, writeBuildStamp } from './build-stamp';

const root = resolve(import.meta.dirname, '..');

/** Where the bundles' sources are (their stamp's digest covers these folders). */
const SOURCE_FOLDERS = ['electron', 'shared'];

/** out/web/<name>.js for each entry; web-desk.js forks desk-service.js beside it (web-host/cli.ts). */
export const WEB_DESK_ENTRIES = {
  'web-desk': 'electron/core/desk/web-host/cli.ts',
  'desk-service': 'electron/core/desk/process/entry.ts',
  'sync-worker': 'electron/core/desk/sync/worker/entry.ts',
  'sync-helper': 'electron/core/desk/sync/worker/helper-entry.ts',
  'certificate-worker': 'electron/core/registry/certificates/pool-worker.ts',
  serve: 'electron/core/registry/cli/serve.ts',
  admin: 'electron/core/registry/cli/admin.ts',
  verify: 'electron/core/registry/cli/verify-log.ts',
} as const;

/** Where the bundle of an entry is written. */
export function builtEntry(name: keyof typeof WEB_DESK_ENTRIES): string {
  return resolve(root, 'out/web', `${name}.js`);
}

/**
 * Pure-JS packages bundled in: loaded from node_modules they are hundreds of small ESM files (kysely
 * 264, ethers 128, zod 99) that Node resolves and reads at every start. Bundled, an admin command
 * took 0.22 s of CPU instead of 0.62 s (Node 20 has no compile cache to share between processes).
 */
const BUNDLED_PACKAGES = ['kysely', 'zod', 'ethers', 'jose', 'hono', '@hono/node-server'];

/** Bundles `entries` (name → absolute file) for Node into `outDir` as `<name>.js`, most dependencies left in node_modules. */
export async function bundleForNode(
  entries: Record<string, string>,
  outDir: string,
  options: { sourcemap?: boolean; keepOutDir?: boolean } = {},
): Promise<void> {
  await build({
    configFile: false,
    logLevel: 'warn',
    root,
    resolve: { alias: viteAliases(root) },
    ssr: { noExternal: BUNDLED_PACKAGES },
    build: {
      ssr: true,
      target: 'node20',
      outDir,
      emptyOutDir: !options.keepOutDir,
      minify: false,
      sourcemap: options.sourcemap ?? false,
      rollupOptions: {
        input: entries,
        output: { format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
      },
    },
  });
}

export async function buildWebDesk(): Promise<void> {
  // The digest of the inputs as they were when the build began: a file edited meanwhile makes the
  // next check find it stale.
  const digest = buildInputsDigest(root, SOURCE_FOLDERS);
  const { 'web-desk': host, ...rest } = Object.fromEntries(
    Object.entries(WEB_DESK_ENTRIES).map(([name, file]) => [name, resolve(root, file)]),
  ) as Record<keyof typeof WEB_DESK_ENTRIES, string>;
  const outDir = resolve(root, 'out/web');
  await bundleForNode(rest, outDir, { sourcemap: true });
  // The web host bundled on its own, sharing no chunk with the desk service: a chunk is loaded
  // whole, with every package any module in it imports, so the host loaded the desk service's
  // zxcvbn, ethers and SQLite too. On its own its start took 0.35 s less CPU (1.15 s against 1.5 s).
  await bundleForNode({ 'web-desk': host }, outDir, { sourcemap: true, keepOutDir: true });
  writeBuildStamp(outDir, digest);
}

/**
 * Builds out/web unless it already holds a build of the sources as they are now (scripts/build-stamp.ts):
 * `npm test` builds it beside the lint, and the integration and end-to-end tiers reuse it.
 */
export async function buildWebDeskUnlessCurrent(): Promise<'built' | 'current'> {
  const outputs = (Object.keys(WEB_DESK_ENTRIES) as Array<keyof typeof WEB_DESK_ENTRIES>).map(builtEntry);
  if (buildIsCurrent(resolve(root, 'out/web'), outputs, buildInputsDigest(root, SOURCE_FOLDERS))) return 'current';
  await buildWebDesk();
  return 'built';
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  await buildWebDesk();
}
