// Three tiers of vitest tests, each a folder, plus Playwright's e2e (test/e2e) and the renderer's
// components in Chromium (test/components, run with the integration tier):
// - test/unit: no sockets, no child processes (test/support/unit-isolation.ts makes either fail), so
//   the tier is fast and runs anywhere;
// - test/integration: real servers on loopback, real processes, the keychain over D-Bus;
// - test/scale: minutes each (the scale-100 sync, the native addon compile).
// `vitest run` runs all three; `npm run test:unit` (or :integration, :scale) one.
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import { CHROMIUM_ARGS } from './scripts/chromium-args.ts';
import { LongestFirstSequencer } from './scripts/longest-first-sequencer.ts';
import { viteAliases } from './scripts/path-aliases.mjs';

// The import aliases (@registry/…: scripts/path-aliases.mjs); the components project does not
// extend this config, so it names them too.
const resolveAliases = { alias: viteAliases(import.meta.dirname) };

// The registry's HTTP suite once more on PostgreSQL (REGISTRY_TEST_ENGINE=postgres: each test
// registry on a database of its own, test/support/postgres.ts): every registry integration test, and
// the unit tests named postgres-* and the warehouse invariants, which take an engine. Left out: what is
// about one SQLite process (a killed server restarted on its file, disk full, the SQLite CLI), whose
// PostgreSQL counterparts are in postgres-processes.test.ts (run by `npm run test:postgres`), and the
// certificate pool, which has no database. Only where REGISTRY_TEST_POSTGRES_URL names a server that
// tests may create databases on; `.ci/run` starts one (scripts/postgres.sh).
const ON_POSTGRES = [
  'test/integration/registry/**/*.test.ts',
  'test/unit/registry/invariants.test.ts',
  'test/unit/registry/postgres-*.test.ts',
];
// postgres-processes and the outage tests are PostgreSQL's already (run once, by the integration project).
const SQLITE_ONLY = [
  'crash',
  'operator-crash',
  'disk-full',
  'cli',
  'serve-cli',
  'certificate-pool',
  'postgres-processes',
  'postgres-outage',
].map((name) => `test/integration/registry/${name}.test.ts`);
// Each test registry copies a database migrated once per run (on the server itself, not through
// PgBouncer) instead of migrating its own.
const POSTGRES_TEMPLATE = 'test/support/postgres-template.ts';
// One worker runs these files one after another without a fresh module graph per file: importing the
// registry again for every file (kysely, zod, pg-native, the schemas) was about half the project's
// CPU. Safe because each file's registry is its own database and server, which it closes in afterAll,
// and nothing of a registry outlives it in a module (per-registry caches are WeakMaps keyed by it):
// a probe after each of the project's 33 files found no handle (socket, timer) left behind.
const SHARED_WORKER = { isolate: false } as const;
// The registry's integration files but the SQLite-only ones (which kill, fill or re-run processes and
// stay in the integration project, a fresh worker each): the postgres project's files, which the
// `registry` project runs on SQLite in a shared worker too.
const REGISTRY_FILES = 'test/integration/registry/**/*.test.ts';
const SHARED_ON_SQLITE = readdirSync(join(import.meta.dirname, 'test/integration/registry'), { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith('.test.ts'))
  .map((name) => `test/integration/registry/${name}`)
  .filter((file) => !SQLITE_ONLY.includes(file));
// The desk's integration files that start no process, kill nothing, use no keychain and mock no
// module: each closes the registries, desks and connections it starts in its hooks, and closing
// releases every timer and socket they started (a probe between files found none left, once the
// fetch transport cleared a feed page's timer with its stream). The rest of test/integration/desk
// stays in the integration project, a fresh worker per file.
const DESK_PROCESS_FREE = [
  'back-office',
  'cache-deferred-indexes',
  'client',
  'connections',
  'connection-tokens',
  'embedded-restarts',
  'examiner-probe',
  'history-review',
  'history-verification',
  'inventory-service',
  'inventory-sync',
  'local-operator',
  'network-fetching',
  'remote-operator',
  'service',
  'sync',
  'sync-failures',
  'sync-examiner-grant',
  'sync-feed',
  'sync-installation-feed',
  'feed-page-reader',
  'sync-prefetch',
  'tokens',
  'updates',
  'web-host',
].map((name) => `test/integration/desk/${name}.test.ts`);
const POSTGRES_PROJECTS = process.env.REGISTRY_TEST_POSTGRES_URL
  ? [
      {
        extends: true as const,
        test: {
          name: 'postgres',
          include: ON_POSTGRES,
          exclude: SQLITE_ONLY,
          env: { REGISTRY_TEST_ENGINE: 'postgres' },
          globalSetup: [POSTGRES_TEMPLATE],
          ...SHARED_WORKER,
        },
      },
    ]
  : [];
// The same registry behind PgBouncer in transaction pooling mode (REGISTRY_TEST_PGBOUNCER_URL, which
// `.ci/run` starts with scripts/pgbouncer.sh): named prepared statements and session state are what
// breaks there. Not the whole postgres project a second time (the suite must stay under 20 minutes):
// the two-process tests (SKIP LOCKED claims held across a SIGKILL, reservations and finishes across
// processes; postgres-processes.test.ts leaves its single-statement and admin CLI tests out there),
// the engine's own tests, and the request paths with the most statements per request and the most
// transactions (warehouse reservations and finishes, idempotent operator writes), and the hottest
// read, sent with its token lookup in one pipeline (token-read-along). The outages and the
// frozen database through PgBouncer are in postgres-outage.test.ts (integration project, on its own
// cluster).
const THROUGH_PGBOUNCER = [
  'test/unit/registry/postgres-*.test.ts',
  'test/integration/registry/postgres-processes.test.ts',
  'test/integration/registry/warehouse.test.ts',
  'test/integration/registry/warehouse-finish.test.ts',
  'test/integration/registry/operator-writes.test.ts',
  'test/integration/registry/operator-edits.test.ts',
  'test/integration/registry/token-read-along.test.ts',
];
const PGBOUNCER_URL = process.env.REGISTRY_TEST_PGBOUNCER_URL;
if (PGBOUNCER_URL && process.env.REGISTRY_TEST_POSTGRES_URL) {
  POSTGRES_PROJECTS.push({
    extends: true as const,
    test: {
      name: 'pgbouncer',
      include: THROUGH_PGBOUNCER,
      exclude: [],
      env: { REGISTRY_TEST_ENGINE: 'postgres', REGISTRY_TEST_POSTGRES_URL: PGBOUNCER_URL },
      globalSetup: [POSTGRES_TEMPLATE],
      ...SHARED_WORKER,
    },
  } as (typeof POSTGRES_PROJECTS)[number]);
}
// (the config is read once per project: warn once per process)
const warned = globalThis as { postgresSkipWarned?: boolean };
if (POSTGRES_PROJECTS.length === 0 && !warned.postgresSkipWarned) {
  warned.postgresSkipWarned = true;
  console.warn('The postgres test project is skipped: REGISTRY_TEST_POSTGRES_URL is not set (scripts/postgres.sh start prints one).');
}

export default defineConfig({
  resolve: resolveAliases,
  test: {
    // Each test file gets its own data folder and loopback port, so files run in parallel safely.
    pool: 'forks',
    // One file per core. Vitest's default in a run is one fewer than the cores, which on a 2-core
    // machine (CI) runs the files one at a time, and most files here spend their time waiting on
    // the servers, desks and builds they start: two at a time took the suite's vitest part from
    // about 500 s to about 320 s there.
    maxWorkers: availableParallelism(),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The projects with the longest files first (scripts/longest-first-sequencer.ts).
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          setupFiles: ['test/support/unit-isolation.ts'],
          // Each worker keeps the modules it imported from one file to the next (kysely, zod, the
          // registry's schemas): imports were most of the tier's time, paid again for every file.
          // Unit tests hold no state in modules (each opens its own data folder and clock).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          exclude: [...SHARED_ON_SQLITE, ...DESK_PROCESS_FREE],
          globalSetup: ['test/support/build-node-bundles.ts'],
        },
      },
      {
        // The registry's HTTP suite on SQLite, in a shared worker as the postgres project runs it:
        // its 31 files took 124 s of CPU with a fresh module graph each, 62 s shared (2026-11-29).
        extends: true,
        test: {
          name: 'registry',
          include: [REGISTRY_FILES],
          exclude: SQLITE_ONLY,
          globalSetup: ['test/support/build-node-bundles.ts'],
          ...SHARED_WORKER,
        },
      },
      {
        // Its 18 files took 127 s of CPU with a fresh module graph each, 77-80 s shared (2026-11-29,
        // load 8-16).
        extends: true,
        test: {
          name: 'desk',
          include: DESK_PROCESS_FREE,
          globalSetup: ['test/support/build-node-bundles.ts'],
          ...SHARED_WORKER,
        },
      },
      {
        // Renderer components in Debian's Chromium (the integration tier: a dev server and a browser).
        plugins: [react()],
        resolve: resolveAliases,
        // Bundled before the first test, so no mid-run re-optimization reloads the page.
        optimizeDeps: { include: ['react', 'react-dom/client', 'react/jsx-dev-runtime', 'zustand', 'ethers/wallet', 'ethers'] },
        test: {
          name: 'components',
          include: ['test/components/**/*.test.tsx'],
          testTimeout: 30_000,
          // expect.element and expect.poll give up after 1 s by default: too short for a first
          // Worker start or a page sharing 2 cores with an integration file.
          expect: { poll: { timeout: 10_000 } },
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({ launchOptions: { executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS } }),
            instances: [{ browser: 'chromium' }],
            screenshotFailures: false,
          },
        },
      },
      { extends: true, test: { name: 'scale', include: ['test/scale/**/*.test.ts'] } },
      ...POSTGRES_PROJECTS,
    ],
  },
});
