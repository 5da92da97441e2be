// How the tests and the UI bench start Debian's Chromium (/usr/bin/chromium): Playwright's end-to-end
// tier (playwright.config.ts), vitest's components project (vitest.config.ts) and bench/ui.bench.ts.
// A module of its own so that vitest's config does not import playwright.config.ts, and with it
// @playwright/test (about 0.75 s of CPU in every vitest main process).
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
