// Builds the renderer once before the end-to-end run (scripts/build-web-page.ts). Then the web desk
// and the registry server (out/web, scripts/build-web-desk.ts), which the fixtures start for every test, and the demo registry (scale 1) they start from: seeded once here
// by the registry's own `seed-demo` command, copied into each test's data folder (fixtures.ts), and
// the desk folder of a first start that synced a copy of it (desk-template.ts).
//
// The page's build runs beside the bundles' build and the seed, which need nothing from it; only
// the desk template waits for all three. Under `npm test` both were built from the same sources
// beside the lint (scripts/build-test-bundles.ts), so they are reused; run alone
// (`npx playwright test`) or after an edit, they are built here.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildWebDeskUnlessCurrent } from '@scripts/build-web-desk';
import { buildWebPageUnlessCurrent } from '@scripts/build-web-page';
import { buildDeskTemplate } from './desk-template';
import { DEMO_REGISTRY_TEMPLATE, PROJECT_ROOT } from './template';

/** The bundles (built unless current), then the demo registry seeded by their `admin seed-demo`. */
async function buildRegistryTemplate(): Promise<void> {
  await buildWebDeskUnlessCurrent();
  rmSync(DEMO_REGISTRY_TEMPLATE, { recursive: true, force: true });
  // A child waited for without blocking, so the page's build goes on meanwhile.
  const args = [join(PROJECT_ROOT, 'out/web/admin.js'), 'seed-demo', '--data', DEMO_REGISTRY_TEMPLATE, '--scale', '1'];
  const seed = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  const code = await new Promise<number | string | null>((done, fail) => {
    seed.once('error', fail);
    seed.once('exit', (exitCode, signal) => done(exitCode ?? signal));
  });
  if (code !== 0) throw new Error(`admin seed-demo failed (${code})`);
}

export default async function globalSetup(): Promise<void> {
  // Both settle before either failure is reported, so no build is left running into the next step.
  const [page, registry] = await Promise.allSettled([buildWebPageUnlessCurrent(), buildRegistryTemplate()]);
  for (const outcome of [page, registry]) if (outcome.status === 'rejected') throw outcome.reason;
  await buildDeskTemplate();
}
