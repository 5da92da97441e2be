// A desk data folder after its first start and first sync of the embedded demo registry, built once
// by global-setup.ts and copied into each test that runs the embedded registry as it is (fixtures.ts).
// A desk's first start verifies the registry's whole transparency log and fills its cache: about
// 3.3 s of CPU more than a later start on the same folder (6.8 s against 3.5 s, measured). The copy
// holds the registry beside the cache that was checked against it, so the log key the cache pinned
// is that registry's own; each test's desk then starts as a person's desk does on its second day:
// the embedded registry on a new port, the cache brought up to date, the history checked from the
// kept frontier. One thing differs, by design: its local administrator gets a new key at its start
// (and logs why, local-operator.ts), as a folder moved to another path does: memory keeps no key
// across starts, and the keychain keeps the embedded registry's entries under the folder's path, so
// the copy finds none of its own whatever keyring it gets. The first start itself stays tested
// (first-start.spec.ts, and the tests that pick their own Secret Service).
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, E2E_CHROMIUM } from '@scripts/chromium-args';
import { copyDemoRegistry, inheritedSecretService, startDesk, waitForSyncDone } from './fixtures';
import { DEMO_DESK_TEMPLATE } from './template';

export async function buildDeskTemplate(): Promise<void> {
  rmSync(DEMO_DESK_TEMPLATE, { recursive: true, force: true });
  const root = mkdtempSync(join(tmpdir(), 'registry-desk-e2e-template-'));
  const deskDir = join(root, 'desk');
  try {
    copyDemoRegistry(join(deskDir, 'embedded-registry'));
    // The Secret Service a test's desk gets by default, so the connection's store is the same kind.
    const desk = await startDesk(deskDir, null, inheritedSecretService());
    try {
      const browser = await chromium.launch({ executablePath: E2E_CHROMIUM, args: CHROMIUM_ARGS });
      try {
        const page = await browser.newPage();
        await page.goto(desk.match[1]!);
        await waitForSyncDone(page);
      } finally {
        await browser.close();
      }
    } finally {
      // Stopped before the copy: the cache and the registry are closed, nothing left in a WAL.
      await desk.stop();
    }
    cpSync(deskDir, DEMO_DESK_TEMPLATE, { recursive: true });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
