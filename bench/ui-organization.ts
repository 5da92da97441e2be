// UI bench, back office: an organization's page with 10,000 ledger movements, in Chromium
// (playwright-core) over the web desk and its embedded registry. Before the desk starts, the
// embedded registry is seeded (demo, scale 1) and one organization gets 10,000 more movements
// (deposits into and withdrawals from its warehouse of 1 g each, alternating, in one transaction,
// through the registry's own operations); its back-office cache then follows the desk's first sync.
// Measured: click on the organization in the list → the first movement rows painted (the page
// announces 'desk:back-office-loaded' for the movements; the bench takes the first animation frame
// after the rows are in the DOM), 20 runs each, p50 / p95, beside a floor measured in the same run:
// the same for an organization with a handful of movements.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { chromium, type Page } from 'playwright-core';
import globalSetup from '../test/e2e/global-setup';
import { startProcess } from '../test/e2e/processes';
import { openRegistry } from '../electron/core/registry/open';
import { seedDemo } from '../electron/core/registry/seed';
import * as ops from '../electron/core/registry/operations';
import type { BenchFigure } from './types';
import { percentile } from './support/percentile';

const ROOT = resolve(import.meta.dirname, '..');
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
export const MOVEMENTS = 10_000;
const RUNS = 20;

declare global {
  interface Window {
    __clickAt?: number;
    __rowsAt?: number;
  }
}

interface Seeded {
  big: { id: string; name: string; movements: number };
  small: { id: string; name: string; movements: number };
}

/** Seeds the embedded registry's folder of a desk data dir before the desk starts. */
function seedRegistry(registryDir: string): Seeded {
  const registry = openRegistry({ dataDir: registryDir });
  try {
    seedDemo(registry, { scale: 1, dataDir: registryDir });
    const raw = registry.db.raw;
    // Organizations holding credits in their inventory, the largest holding first.
    const holders = raw
      .prepare(
        `SELECT a.organization_id AS organizationId, o.full_name AS name, m.credit_id AS creditId,
                SUM(CASE WHEN m.to_account = a.id THEN m.amount ELSE -m.amount END) AS held
         FROM movements m JOIN accounts a ON a.id IN (m.to_account, m.from_account)
         JOIN organizations o ON o.id = a.organization_id
         WHERE a.kind = 'inventory' GROUP BY a.id, m.credit_id HAVING held > 0 ORDER BY held DESC`,
      )
      .all() as { organizationId: string; name: string; creditId: string; held: number }[];
    const big = holders[0];
    if (!big) throw new Error('the demo seed left no organization holding credits');
    const movementsOf = (organizationId: string) =>
      raw
        .prepare(
          `SELECT COUNT(*) FROM movements WHERE from_account IN (SELECT id FROM accounts WHERE organization_id = ?)
           OR to_account IN (SELECT id FROM accounts WHERE organization_id = ?)`,
        )
        .pluck()
        .get(organizationId, organizationId) as number;
    const before = movementsOf(big.organizationId);
    registry.db.transaction(() => {
      const move = { organizationId: big.organizationId, creditId: big.creditId, amount: 0.000001 };
      for (let i = before; i < MOVEMENTS; i += 2) {
        ops.depositToWarehouse(registry, move);
        ops.withdrawFromWarehouse(registry, move);
      }
    });
    const others = holders
      .filter((h) => h.organizationId !== big.organizationId)
      .map((h) => ({ id: h.organizationId, name: h.name, movements: movementsOf(h.organizationId) }))
      .filter((h) => h.movements > 0)
      .sort((a, b) => a.movements - b.movements);
    const small = others[0];
    if (!small) throw new Error('the demo seed left no second organization with movements');
    return { big: { id: big.organizationId, name: big.name, movements: movementsOf(big.organizationId) }, small };
  } finally {
    registry.close();
  }
}

/** Opens the organization from the Organizations list and answers click → first movement rows painted. */
async function openOrganization(page: Page, name: string): Promise<number> {
  await page.getByRole('searchbox', { name: 'Search organizations' }).fill(name);
  const link = page.getByRole('table', { name: 'Back-office organizations' }).getByRole('button', { name, exact: true });
  await page.evaluate(() => {
    window.__clickAt = undefined;
    window.__rowsAt = undefined;
  });
  await link.click();
  await page
    .waitForFunction(() => window.__rowsAt !== undefined, null, { timeout: 60_000 })
    .catch(async (error: Error) => {
      throw new Error(`the movements of ${name} were not painted : ${error.message}`);
    });
  const ms = await page.evaluate(() => window.__rowsAt! - window.__clickAt!);
  await page.getByRole('button', { name: '← All organizations' }).click();
  await page.getByRole('table', { name: 'Back-office organizations' }).waitFor();
  return ms;
}

export async function organizationPageFigures(): Promise<BenchFigure[]> {
  await globalSetup();
  const root = mkdtempSync(join(tmpdir(), 'registry-desk-ui-bench-org-'));
  const stops: Array<() => Promise<void>> = [];
  try {
    const deskDir = join(root, 'desk');
    const seeded = seedRegistry(join(deskDir, 'embedded-registry'));
    const desk = await startProcess('web desk', 'npm', ['run', '--silent', 'web', '--', '--data', deskDir, '--port', '0'], {
      cwd: ROOT,
      ready: /desk ready at (http:\/\/\S+)/,
      timeoutMs: 300_000,
    });
    stops.push(desk.stop);
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
    stops.push(() => browser.close());
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    // Before any page script: the click on an organization, then the first frame after its
    // movement rows are in the DOM.
    // A string, not a function: tsx would wrap the named inner function in a helper the page lacks.
    await page.addInitScript(`
      document.addEventListener('click', (e) => {
        if (e.target.closest?.('table[aria-label="Back-office organizations"]')) window.__clickAt = performance.now();
      }, true);
      window.addEventListener('desk:back-office-loaded', (e) => {
        if (e.detail.screen !== 'bo-organization-movements') return;
        const painted = () => {
          if (document.querySelector('table[aria-label="Ledger movements"] tbody tr') === null) return requestAnimationFrame(painted);
          requestAnimationFrame(() => { window.__rowsAt ??= performance.now(); });
        };
        requestAnimationFrame(painted);
      });
    `);
    await page.goto(desk.match[1]!);
    await page.waitForFunction(() => document.documentElement.dataset.syncState === 'done', null, { timeout: 600_000, polling: 500 });
    // The back-office sync follows the first sync: wait until the cache holds the big history.
    const cacheDir = join(deskDir, 'cache');
    const cached = () => {
      for (const file of readdirSync(cacheDir)) {
        if (!file.endsWith('.sqlite')) continue;
        const db = new BetterSqlite3(join(cacheDir, file), { readonly: true });
        try {
          const n = db.prepare('SELECT COUNT(*) FROM bo_ledger').pluck().get() as number;
          if (n >= MOVEMENTS) return true;
        } catch {
          // not migrated yet
        } finally {
          db.close();
        }
      }
      return false;
    };
    await waitUntil(cached, 600_000);

    await page.getByRole('navigation', { name: 'Back office' }).getByRole('button', { name: 'Organizations', exact: true }).click();
    await page.getByRole('table', { name: 'Back-office organizations' }).waitFor();
    const big: number[] = [];
    const small: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      small.push(await openOrganization(page, seeded.small.name));
      big.push(await openOrganization(page, seeded.big.name));
    }
    const p50 = percentile(big, 50);
    const floor = percentile(small, 50);
    return [
      {
        suite: 'ui',
        name: `organization page, ${seeded.big.movements.toLocaleString('en-US')} movements → first rows, p50 of ${RUNS}`,
        value: p50,
        unit: 'ms',
        floor,
        ratio: p50 / floor,
        target: '< 300 ms',
        pass: p50 < 300,
      },
      {
        suite: 'ui',
        name: `organization page, ${seeded.big.movements.toLocaleString('en-US')} movements, p95`,
        value: percentile(big, 95),
        unit: 'ms',
        floor: percentile(small, 95),
        ratio: percentile(big, 95) / percentile(small, 95),
      },
      { suite: 'ui', name: `(floor: organization with ${seeded.small.movements} movements)`, value: floor, unit: 'ms' },
    ];
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
  }
}

/** Waits for a condition on this side (the desk's cache file), bounded in time. */
async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`the back-office cache did not reach ${MOVEMENTS} movements in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
