// End-to-end tests of the desk in Debian's Chromium (its headless shell), against the loopback web
// host over the real desk core and a real registry seeded with demo data (see test/e2e/fixtures.ts).
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, E2E_CHROMIUM } from './scripts/chromium-args.ts';

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './test/e2e/global-setup.ts',
  // Each test starts its own registry and desk: a first sync of the demo data takes a while on 2 shared cores.
  timeout: 180_000,
  expect: { timeout: 20_000 },
  // Three tests at a time, any file's beside any other's: each test has its own data folder, ports,
  // registry, desk and keyring (fixtures.ts). On CI's 2 cores four at a time kept both cores 100 %
  // busy and took 13.1 minutes where two took 11.9 (more contention, no more work done); three is
  // between the two. A file whose tests share a server (connections.spec.ts) keeps them in one worker.
  workers: Number(process.env.E2E_WORKERS ?? 3),
  fullyParallel: true,
  forbidOnly: true,
  retries: 0,
  reporter: [['list']],
  // Not test-results itself: Playwright empties its outputDir, and the screenshots live beside it.
  outputDir: 'test-results/artifacts',
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: E2E_CHROMIUM, args: CHROMIUM_ARGS },
    viewport: { width: 1440, height: 900 },
    acceptDownloads: true,
    // A failed test keeps its trace: each action's DOM snapshot, network and console, enough to
    // replay what the page showed (`npx playwright show-trace`), plus the screenshot below. Not the
    // trace's screencast: it makes Chromium paint, encode and send frames through every test (a
    // quarter of a test's CPU, measured), and the snapshots already show each step.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true },
    screenshot: 'only-on-failure',
  },
});
