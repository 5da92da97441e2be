// Three tiers of vitest tests, plus Playwright's e2e (README, "Tests"):
// - unit: no sockets, no child processes (test/support/unit-isolation.ts makes either fail), so the
//   tier is fast and runs anywhere; every file not listed below is a unit test;
// - integration: real servers on loopback, real processes, the keychain over D-Bus;
// - scale: minutes each (the scale-100 sync, the native addon compile).
// `vitest run` runs all three; `npm run test:unit` (or :integration, :scale) one.
import { availableParallelism } from 'node:os';
import react from '@vitejs/plugin-react';
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import { CHROMIUM_ARGS } from './playwright.config.ts';

const INTEGRATION = [
  'test/db/native-modules.test.ts',
  'test/db/postgres-migrations.test.ts',
  'test/desk/back-office.test.ts',
  'test/desk/client-transport.test.ts',
  'test/desk/client.test.ts',
  'test/desk/connections.test.ts',
  'test/desk/inventory-service.test.ts',
  'test/desk/inventory-sync.test.ts',
  'test/desk/local-operator.test.ts',
  'test/desk/remote-operator.test.ts',
  'test/desk/secrets-keychain.test.ts',
  'test/desk/service-process.test.ts',
  'test/desk/service.test.ts',
  'test/desk/shell.test.ts',
  'test/desk/sync-failures.test.ts',
  'test/desk/sync-feed.test.ts',
  'test/desk/sync-worker.test.ts',
  'test/desk/sync.test.ts',
  'test/desk/tokens.test.ts',
  'test/desk/web-host.test.ts',
  'test/guardrails/commit-history.test.ts',
  'test/registry/auth.test.ts',
  'test/registry/body-limit.test.ts',
  'test/registry/certificate-pool.test.ts',
  'test/registry/changes-feed.test.ts',
  'test/registry/certificate.test.ts',
  'test/registry/cli.test.ts',
  'test/registry/concurrency.test.ts',
  'test/registry/crash.test.ts',
  'test/registry/credits.test.ts',
  'test/registry/disk-full.test.ts',
  'test/registry/endpoint-permissions.test.ts',
  'test/registry/finalize.test.ts',
  'test/registry/fuzz.test.ts',
  'test/registry/http-pipeline.test.ts',
  'test/registry/openapi.test.ts',
  'test/registry/operator-crash.test.ts',
  'test/registry/operator-endpoints.test.ts',
  'test/registry/operator-previews.test.ts',
  'test/registry/operator-writes.test.ts',
  'test/registry/organizations.test.ts',
  'test/registry/pagination.test.ts',
  'test/registry/postgres-processes.test.ts',
  'test/registry/projects.test.ts',
  'test/registry/raw-http.test.ts',
  'test/registry/retirements-read.test.ts',
  'test/registry/warehouse.test.ts',
];

// The registry's HTTP suite once more on PostgreSQL (REGISTRY_TEST_ENGINE=postgres: each test
// registry on a database of its own, test/support/postgres.ts). Not here: what is about one SQLite
// process (crash, operator-crash: a killed server restarted on its file; disk-full; the SQLite CLI),
// whose PostgreSQL counterparts are in postgres-processes.test.ts. Only where REGISTRY_TEST_POSTGRES_URL names a server that tests may create databases
// on; `.ci/run` starts one (scripts/postgres.sh).
const ON_POSTGRES = [
  'test/registry/auth.test.ts',
  'test/registry/body-limit.test.ts',
  'test/registry/certificate.test.ts',
  'test/registry/changes-feed.test.ts',
  'test/registry/concurrency.test.ts',
  'test/registry/credits.test.ts',
  'test/registry/endpoint-permissions.test.ts',
  'test/registry/finalize.test.ts',
  'test/registry/fuzz.test.ts',
  'test/registry/http-pipeline.test.ts',
  'test/registry/invariants.test.ts',
  'test/registry/openapi.test.ts',
  'test/registry/operator-endpoints.test.ts',
  'test/registry/operator-previews.test.ts',
  'test/registry/operator-writes.test.ts',
  'test/registry/organizations.test.ts',
  'test/registry/pagination.test.ts',
  'test/registry/postgres-busy.test.ts',
  'test/registry/postgres-row-locks.test.ts',
  'test/registry/projects.test.ts',
  'test/registry/raw-http.test.ts',
  'test/registry/retirements-read.test.ts',
  'test/registry/warehouse.test.ts',
];
const POSTGRES_PROJECTS = process.env.REGISTRY_TEST_POSTGRES_URL
  ? [{ extends: true as const, test: { name: 'postgres', include: ON_POSTGRES, env: { REGISTRY_TEST_ENGINE: 'postgres' } } }]
  : [];
// (the config is read once per project: warn once per process)
const warned = globalThis as { postgresSkipWarned?: boolean };
if (POSTGRES_PROJECTS.length === 0 && !warned.postgresSkipWarned) {
  warned.postgresSkipWarned = true;
  console.warn('The postgres test project is skipped: REGISTRY_TEST_POSTGRES_URL is not set (scripts/postgres.sh start prints one).');
}

const SCALE = ['test/desk/sync-scale.test.ts', 'test/db/electron-native-build.test.ts'];

export default defineConfig({
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
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...INTEGRATION, ...SCALE],
          setupFiles: ['test/support/unit-isolation.ts'],
        },
      },
      { extends: true, test: { name: 'integration', include: INTEGRATION, globalSetup: ['test/support/build-node-bundles.ts'] } },
      {
        // Renderer components in Debian's Chromium (the integration tier: a dev server and a browser).
        plugins: [react()],
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
      { extends: true, test: { name: 'scale', include: SCALE } },
      ...POSTGRES_PROJECTS,
    ],
  },
});
