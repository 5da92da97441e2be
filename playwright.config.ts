// End-to-end tests of the desk in Debian's Chromium, against the loopback web host over the real
// desk core and a real registry seeded with demo data (see test/e2e/fixtures.ts).
import { defineConfig } from '@playwright/test';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './test/e2e/global-setup.ts',
  // Each test starts its own registry and desk: a first sync of the demo data takes a while on 2 shared cores.
  timeout: 180_000,
  expect: { timeout: 20_000 },
  // Two test files at a time: each test has its own data folder, ports, registry, desk and keyring
  // (fixtures.ts), and much of a test's time is waiting on its desk, so two fit on two cores.
  workers: 2,
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  reporter: [['list']],
  // Not test-results itself: Playwright empties its outputDir, and the screenshots live beside it.
  outputDir: 'test-results/artifacts',
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS },
    viewport: { width: 1440, height: 900 },
    acceptDownloads: true,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
