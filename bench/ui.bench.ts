// UI bench: first the back office's organization page with 10,000 ledger movements
// (bench/ui-organization.ts), then the desk page in Chromium (playwright-core) over the web desk, connected to a separate
// scale-100 demo registry (10,000+ projects). Two figures:
//   - navigation → first rows of the 10,000-project list painted (target < 1 s), over page reloads;
//   - applying a search (Enter in the search box → the matching rows painted; target < 100 ms).
// The page announces 'desk:projects-loaded' once a search's first rows are committed; the bench
// takes the next animation frame after it as "painted".
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import globalSetup from '../test/e2e/global-setup';
import { startProcess } from '../test/e2e/processes';
import { CHROMIUM_ARGS } from '@scripts/chromium-args';
import type { BenchFigure, BenchSuite } from './types';
import { organizationPageFigures } from './ui-organization';

const ROOT = resolve(import.meta.dirname, '..');
const RELOADS = 7;
const SEARCH_WORDS = ['solar', 'forest', 'cookstoves', 'wind', 'biochar', 'mangrove', 'landfill', 'rice'];

declare global {
  interface Window {
    __firstRowsAt?: number;
    __searchTimes?: Record<string, number>;
    __enterAt?: number;
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function run(): Promise<BenchFigure[]> {
  // The back office's organization page with 10,000 ledger movements (bench/ui-organization.ts).
  const organizationPage = await organizationPageFigures();
  return [...organizationPage, ...(await projectListFigures())];
}

/**
 * A scale-100 demo registry and a web desk connected to it as its demo app, each in a process of
 * its own under `root` (their stops pushed onto `stops`); returns the desk's address.
 */
async function startRegistryAndDesk(root: string, stops: Array<() => Promise<void>>): Promise<string> {
  const registryDir = join(root, 'registry');
  const registry = await startProcess(
    'registry',
    'npm',
    ['run', '--silent', 'serve', '--', '--data', registryDir, '--port', '0', '--seed', 'demo', '--scale', '100'],
    {
      cwd: ROOT,
      ready: /listening on (http:\/\/\S+)/,
      timeoutMs: 600_000,
    },
  );
  stops.push(registry.stop);
  const credentials = JSON.parse(readFileSync(join(registryDir, 'demo-credentials.json'), 'utf8')) as {
    app: { id: string; privateKeyPem: string };
  };
  const keyFile = join(root, 'app-key.pem');
  writeFileSync(keyFile, credentials.app.privateKeyPem, { mode: 0o600 });
  const desk = await startProcess(
    'web desk',
    'npm',
    [
      'run',
      '--silent',
      'web',
      '--',
      '--data',
      join(root, 'desk'),
      '--port',
      '0',
      '--registry-url',
      registry.match[1]!,
      '--app-id',
      credentials.app.id,
      '--key-file',
      keyFile,
    ],
    {
      cwd: ROOT,
      ready: /desk ready at (http:\/\/\S+)/,
      timeoutMs: 300_000,
    },
  );
  stops.push(desk.stop);
  return desk.match[1]!;
}

async function projectListFigures(): Promise<BenchFigure[]> {
  await globalSetup();
  const root = mkdtempSync(join(tmpdir(), 'registry-desk-ui-bench-'));
  const stops: Array<() => Promise<void>> = [];
  try {
    const deskUrl = await startRegistryAndDesk(root, stops);

    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
    stops.push(() => browser.close());
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    // Before any page script: note when the first rows are painted, and each search's apply time.
    await page.addInitScript(() => {
      window.__searchTimes = {};
      window.addEventListener(
        'keydown',
        (e) => {
          if (e.key === 'Enter') window.__enterAt = performance.now();
        },
        true,
      );
      window.addEventListener('desk:projects-loaded', (e) => {
        const { query, total } = (e as CustomEvent<{ query: string; total: number }>).detail;
        requestAnimationFrame(() => {
          const now = performance.now();
          if (query === '' && total > 0 && window.__firstRowsAt === undefined) window.__firstRowsAt = now;
          if (query !== '' && window.__enterAt !== undefined) window.__searchTimes![query] = now - window.__enterAt;
        });
      });
    });
    await page.goto(deskUrl);
    // The first sync of 10,000 projects: wait for the app's own signal.
    await page.waitForFunction(() => document.documentElement.dataset.syncState === 'done', null, { timeout: 1_800_000, polling: 1000 });

    // All 10,000 projects are in the internal scope (the public one lists only validated projects of
    // verified organizations); the list keeps its scope across the reloads below.
    await page.getByText('Internal', { exact: true }).click();
    await page.waitForFunction(() => Number(document.documentElement.dataset.projectsTotal) >= 10_000, null, { timeout: 120_000 });

    const firstRows: number[] = [];
    for (let i = 0; i < RELOADS; i++) {
      await page.reload();
      await page.waitForFunction(
        () => window.__firstRowsAt !== undefined && document.querySelector('.table-scroll [role="row"] .cell-primary') !== null,
      );
      firstRows.push(await page.evaluate(() => window.__firstRowsAt!));
    }
    const total = Number(await page.evaluate(() => document.documentElement.dataset.projectsTotal));
    if (total < 10_000) throw new Error(`the list shows ${total} projects; the bench needs the 10,000 of a scale-100 registry`);

    const search = page.getByRole('searchbox', { name: 'Search projects' });
    const searchTimes: number[] = [];
    for (const word of SEARCH_WORDS) {
      await search.fill(word);
      await search.press('Enter');
      await page.waitForFunction((w) => window.__searchTimes![w] !== undefined, word, { timeout: 120_000 });
      searchTimes.push(await page.evaluate((w) => window.__searchTimes![w]!, word));
      await search.fill('');
      await search.press('Enter');
      await page
        .waitForFunction(() => document.documentElement.dataset.projectsQuery === '', null, { timeout: 120_000 })
        .catch(async (error: Error) => {
          const shown = await page.evaluate(
            () => document.querySelector('[role="alert"]')?.textContent ?? document.documentElement.dataset.projectsQuery,
          );
          throw new Error(`the list did not come back after clearing "${word}" (page shows: ${shown}): ${error.message}`);
        });
    }

    const first = median(firstRows);
    const apply = median(searchTimes);
    return [
      {
        suite: 'ui',
        name: `navigation → first rows (${total} projects), median of ${RELOADS}`,
        value: first,
        unit: 'ms',
        target: '< 1000 ms',
        pass: first < 1000,
      },
      {
        suite: 'ui',
        name: `apply a search (Enter → rows painted), median of ${SEARCH_WORDS.length}`,
        value: apply,
        unit: 'ms',
        target: '< 100 ms',
        pass: apply < 100,
      },
      { suite: 'ui', name: 'apply a search, slowest', value: Math.max(...searchTimes), unit: 'ms' },
    ];
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
  }
}

export const suite: BenchSuite = { name: 'ui (desk pages in Chromium: 10,000 ledger movements, 10,000 projects)', run };
