// How the tests and the UI bench start Debian's Chromium (/usr/bin/chromium, or its headless shell
// for the end-to-end tier): Playwright's end-to-end tier (playwright.config.ts), vitest's components
// project (vitest.config.ts) and bench/ui.bench.ts.
// A module of its own so that vitest's config does not import playwright.config.ts, and with it
// @playwright/test (about 0.75 s of CPU in every vitest main process).

/**
 * The end-to-end tier's browser: Debian's build of Chromium's headless shell, the same engine
 * (Blink, V8) as /usr/bin/chromium at the same version, without the browser UI that Chrome's own
 * headless mode still runs: no WebUI renderer for each window's top chrome. A test's fixed cost
 * (desk, page, first render, wait for the sync) fell from 3.5 to 2.5 s of CPU (6 empty tests,
 * one worker, measured). Its own constant: the components project keeps /usr/bin/chromium.
 */
export const E2E_CHROMIUM = '/usr/bin/chromium-headless-shell';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
