// The desk under test, per test: a fresh temp data folder, the web desk (`npm run web`, built by
// global-setup) over the real desk core, and either its embedded registry (seeded with demo data)
// or, for tests that need to stop the registry or move its clock, a separate `serve --seed demo --test-clock`
// registry the desk connects to as a remote. Either registry starts from a copy of the demo
// registry seeded once by global-setup (scale 1), unless the test asks for the desk's own first
// start. An embedded registry under the default Secret Service comes with the desk folder of a
// first start that has synced it (desk-template.ts), so the test's desk skips that first sync. The
// page is opened at the launch URL and the fixture waits for the app's own "sync finished" signal
// before the test starts.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { startProcess, type Started } from './processes';
import { DEMO_DESK_TEMPLATE, DEMO_REGISTRY_TEMPLATE, PROJECT_ROOT } from './template';

export { PROJECT_ROOT };

export interface DemoCredentials {
  app: { id: string; name: string; privateKeyPem: string };
  installations: Array<{ id: string; organizationId: string; permissions: Record<string, string> }>;
  wallets: Array<{ address: string; privateKey: string; retirements: Array<{ id: string; projectAddress: string; tokenId: string }> }>;
}

export interface TestRegistry {
  url: string;
  dataDir: string;
  credentials: DemoCredentials;
  /** Moves the registry's test clock forward. */
  advanceClock(ms: number): Promise<void>;
  stop(): Promise<void>;
}

export interface DeskUnderTest {
  launchUrl: string;
  dataDir: string;
  credentials: DemoCredentials;
  /** Present when the registry runs as its own process (registry: 'remote'). */
  registry: TestRegistry | null;
}

export interface DeskOptions {
  registry: 'embedded' | 'remote';
  /** Demo seed scale of a remote registry (1 = the small demo). */
  scale: number;
  /**
   * 'copy' (the default): the registry (embedded or remote) starts from a copy of the demo registry
   * global-setup seeded (scale 1 only; other scales seed their own). 'first-start': the embedded
   * registry is seeded by the desk itself, as on a new user's first start.
   */
  seed?: 'copy' | 'first-start';
  /**
   * Where the desk can keep app keys. 'inherit' (the default): whatever this environment offers
   * (.ci/run runs the suite inside a D-Bus session with an unlocked gnome-keyring; a bare shell has
   * none); where it offers a Secret Service, each desk gets a keyring of its own as with 'keychain',
   * so desks running in parallel never share keychain state (nor leave entries in the machine's).
   * 'keychain': the desk gets its own D-Bus session and a throwaway unlocked gnome-keyring,
   * wherever the tests run. 'none': no Secret Service can be reached, so keys of added connections
   * go to passphrase-encrypted files.
   */
  secretService?: SecretService;
}

export type SecretService = 'inherit' | 'keychain' | 'none';

const STARTUP_MS = 120_000;

/**
 * `npm run <script> -- args` as built by global-setup (scripts/build-web-desk.ts): the same code,
 * bundled, so each of the many desks and registries the tests start skips npm and tsx's per-start
 * compile of hundreds of modules.
 */
export function builtRun(script: 'serve' | 'web', args: string[]): [string, string[]] {
  const file = join(PROJECT_ROOT, 'out', 'web', script === 'web' ? 'web-desk.js' : 'serve.js');
  return [process.execPath, ['--enable-source-maps', file, ...args]];
}

/** Puts a copy of the seeded demo registry (global-setup) in `dataDir`, where a registry's data goes. */
export function copyDemoRegistry(dataDir: string): void {
  cpSync(DEMO_REGISTRY_TEMPLATE, dataDir, { recursive: true });
}

export async function startRegistry(dataDir: string, scale = 1): Promise<TestRegistry> {
  // `--seed demo` keeps a copied registry as it is, and seeds any other scale itself.
  if (scale === 1) copyDemoRegistry(dataDir);
  const [command, args] = builtRun('serve', ['--data', dataDir, '--port', '0', '--seed', 'demo', '--scale', String(scale), '--test-clock']);
  const server: Started = await startProcess('registry', command, args, {
    cwd: PROJECT_ROOT,
    ready: /listening on (http:\/\/\S+)/,
    timeoutMs: STARTUP_MS,
  });
  const url = server.match[1]!;
  const credentials = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8')) as DemoCredentials;
  return {
    url,
    dataDir,
    credentials,
    async advanceClock(ms) {
      const response = await fetch(`${url}/__test__/clock/advance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ms }),
      });
      if (!response.ok) throw new Error(`advancing the registry clock failed: ${response.status} ${await response.text()}`);
    },
    stop: server.stop,
  };
}

export async function startDesk(dataDir: string, remote: TestRegistry | null, secretService: SecretService = 'inherit'): Promise<Started> {
  const remoteArgs: string[] = [];
  if (remote) {
    const keyFile = join(dataDir, '..', 'app-key.pem');
    writeFileSync(keyFile, remote.credentials.app.privateKeyPem, { mode: 0o600 });
    remoteArgs.push('--registry-url', remote.url, '--app-id', remote.credentials.app.id, '--key-file', keyFile);
  }
  const [command, args] = builtRun('web', ['--data', dataDir, '--port', '0', ...remoteArgs, ...(remote ? [] : ['--test-clock'])]);
  const run = withSecretService(secretService, command, args, join(dataDir, '..', 'keyring'));
  return startProcess('web desk', run.command, run.args, {
    cwd: PROJECT_ROOT,
    ready: /desk ready at (http:\/\/\S+)/,
    timeoutMs: STARTUP_MS,
    env: run.env,
  });
}

/**
 * What 'inherit' gives a desk: where this environment offers a Secret Service, a keyring of the
 * desk's own ('keychain'); elsewhere whatever it offers.
 */
export function inheritedSecretService(): SecretService {
  return process.env.DBUS_SESSION_BUS_ADDRESS !== undefined ? 'keychain' : 'inherit';
}

const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/**
 * The desk's command with the Secret Service asked for. 'keychain' runs it under its own
 * dbus-run-session with gnome-keyring unlocked on a keyring folder of this test (the machine's own
 * keyrings are neither needed nor touched); the daemon and the bus end with the desk's process
 * group. 'none' points it at a bus address where nothing listens (and no $DISPLAY, so libdbus cannot
 * autolaunch one).
 */
function withSecretService(
  mode: SecretService,
  command: string,
  args: string[],
  keyringHome: string,
): { command: string; args: string[]; env: NodeJS.ProcessEnv } {
  if (mode === 'inherit') return { command, args, env: {} };
  mkdirSync(keyringHome, { recursive: true });
  if (mode === 'none')
    return { command, args, env: { DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(keyringHome, 'no-bus-here')}`, DISPLAY: undefined } };
  const script = `echo -n e2e-keyring | gnome-keyring-daemon --unlock --components=secrets >/dev/null && exec ${[command, ...args].map(shellQuote).join(' ')}`;
  return {
    command: 'dbus-run-session',
    args: ['--', 'sh', '-c', script],
    env: { XDG_DATA_HOME: keyringHome, DBUS_SESSION_BUS_ADDRESS: undefined },
  };
}

/** Waits for the app's named signal that a sync run has finished (data-sync-state="done"). */
export async function waitForSyncDone(page: Page, timeout = 150_000): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.syncState === 'done', null, { timeout });
}

/**
 * Waits until the project list (the desk's first screen) shows the data of the latest finished sync:
 * right after a sync ends it still shows the rows it had, until their fresh copy arrives.
 */
export async function waitForProjectsOfLatestSync(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const state = document.documentElement.dataset;
    return state.projectsDataVersion !== undefined && state.projectsDataVersion === state.dataVersion;
  });
}

/** Resolves when the page next dispatches `name` on window (register before causing it). */
export function nextAppEvent(page: Page, name: string): Promise<unknown> {
  return page.evaluate(
    (eventName) => new Promise((resolve) => window.addEventListener(eventName, (e) => resolve((e as CustomEvent).detail), { once: true })),
    name,
  );
}

export const test = base.extend<{ deskOptions: DeskOptions; desk: DeskUnderTest; app: Page; pageProblems: string[] }>({
  deskOptions: [{ registry: 'embedded', scale: 1 }, { option: true }],

  desk: async ({ deskOptions }, use, testInfo) => {
    const root = mkdtempSync(join(tmpdir(), 'registry-desk-e2e-'));
    const deskDir = join(root, 'desk');
    let registry: TestRegistry | null = null;
    let desk: Started | null = null;
    try {
      const secretService = deskOptions.secretService ?? 'inherit';
      if (deskOptions.registry === 'remote') registry = await startRegistry(join(root, 'registry'), deskOptions.scale);
      else if (deskOptions.seed === 'first-start') {
        // the desk seeds its registry itself
      } else if (secretService === 'inherit') cpSync(DEMO_DESK_TEMPLATE, deskDir, { recursive: true });
      else copyDemoRegistry(join(deskDir, 'embedded-registry'));
      desk = await startDesk(deskDir, registry, secretService === 'inherit' ? inheritedSecretService() : secretService);
      const credentials =
        registry?.credentials ??
        (JSON.parse(readFileSync(join(deskDir, 'embedded-registry', 'demo-credentials.json'), 'utf8')) as DemoCredentials);
      await use({ launchUrl: desk.match[1]!, dataDir: deskDir, credentials, registry });
    } finally {
      if (testInfo.status !== testInfo.expectedStatus) {
        if (desk) await testInfo.attach('web desk output', { body: desk.output(), contentType: 'text/plain' });
      }
      await desk?.stop();
      await registry?.stop();
      rmSync(root, { recursive: true, force: true });
    }
  },

  pageProblems: async ({}, use) => {
    await use([]);
  },

  app: async ({ page, desk, pageProblems }, use) => {
    // Uncaught errors and CSP violations fail the test: the page must run clean under its policy.
    page.on('pageerror', (error) => pageProblems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') pageProblems.push(`console error: ${message.text()} at ${message.location().url}`);
    });
    await page.goto(desk.launchUrl);
    await waitForSyncDone(page);
    await waitForProjectsOfLatestSync(page);
    await use(page);
    expect(pageProblems, 'the page logged errors').toEqual([]);
  },
});

export { expect };

/**
 * With E2E_SCREENSHOTS=1, writes a screenshot of the page in the light and dark theme (via the system
 * colour scheme) to test-results/screenshots, for a person to look at; nothing compares them. Without
 * it, does nothing: the two repaints and PNG encodes cost every run CPU and check nothing.
 */
export async function screenshotBothThemes(page: Page, name: string): Promise<void> {
  if (process.env.E2E_SCREENSHOTS !== '1') return;
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.screenshot({ path: join(PROJECT_ROOT, 'test-results', 'screenshots', `${name}-${colorScheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: null });
}
