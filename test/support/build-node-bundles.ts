// Vitest global setup of the integration tier: builds out/web (scripts/build-web-desk.ts) from the
// working tree, unless `npm test` has just built it from the same sources (scripts/build-stamp.ts),
// so tests that run the registry's CLIs as processes run them bundled, as the e2e tests run the web
// desk, instead of paying tsx's compile at each of dozens of starts.
import { buildWebDeskUnlessCurrent } from '@scripts/build-web-desk';

// The integration and registry projects both name this setup; vitest runs each project's global
// setups in its own process, so the build is kept there and done once per run, not once per project.
const run = globalThis as { webDeskBuild?: Promise<unknown> };

export default async function setup(): Promise<void> {
  run.webDeskBuild ??= buildWebDeskUnlessCurrent();
  await run.webDeskBuild;
}
