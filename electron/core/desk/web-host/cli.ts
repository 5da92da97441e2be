// `npm run web -- [--data <dir>] [--port <p>] [--registry-url <url> --app-id <id> --key-file <pem>] [--test-clock]`
// Starts the desk service in its own child process (desk/process: this process only routes the
// page's calls and events, so a bulk export never stalls it) and the loopback web host, builds the
// renderer first if it is missing, and prints one line `desk ready at <launch URL>`. Stops cleanly
// on SIGINT and SIGTERM. Run from source (tsx) or built (out/web/web-desk.js, `npm run build:web`):
// built, it starts the built desk service and workers beside it.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { LaunchOptionsError, parseLaunchOptions } from '../launch-options';
import { startDeskServiceChild } from '../process/node-host';
import { startWebHost } from './server';

/** The folder holding package.json, above this file (electron/core/desk/web-host, or out/web when built). */
function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

const here = import.meta.dirname;
const projectRoot = findProjectRoot(here);
export const RENDERER_DIR = join(projectRoot, 'out', 'renderer');

/** The built desk service and workers beside this file (out/web), or nothing when run from source. */
function builtSiblings(): { entry?: string; syncWorkerFile?: string; certificateWorkerFile?: string } {
  const file = (name: string) => (existsSync(join(here, name)) ? join(here, name) : undefined);
  const entry = file('desk-service.js');
  if (!entry) return {};
  const syncWorkerFile = file('sync-worker.js');
  const certificateWorkerFile = file('certificate-worker.js');
  return { entry, ...(syncWorkerFile ? { syncWorkerFile } : {}), ...(certificateWorkerFile ? { certificateWorkerFile } : {}) };
}

export function ensureRendererBuilt(log: (line: string) => void): void {
  if (existsSync(join(RENDERER_DIR, 'index.html'))) return;
  log('the renderer is not built yet: running `npm run build` first');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const build = spawnSync(npm, ['run', 'build'], {
    cwd: projectRoot,
    stdio: ['ignore', 'inherit', 'inherit'],
    shell: process.platform === 'win32',
  });
  if (build.status !== 0 || !existsSync(join(RENDERER_DIR, 'index.html')))
    throw new Error('building the renderer failed; see the output above');
}

/**
 * A launch address works once, in one browser. From a terminal, Enter prints a new one (for another
 * browser or profile); only the person at the terminal that started the desk can press it.
 */
function offerLaunchAddresses(host: { newLaunchUrl(): string }, log: (line: string) => void): void {
  if (!process.stdin.isTTY) return;
  log('each launch address works once: press Enter here for a new one (another browser or profile)');
  createInterface({ input: process.stdin }).on('line', () => {
    process.stdout.write(`new launch address (works once): ${host.newLaunchUrl()}\n`);
  });
}

export async function runWebDesk(argv: readonly string[]): Promise<void> {
  const log = (line: string) => process.stderr.write(`[desk] ${line}\n`);
  const options = parseLaunchOptions(argv);
  ensureRendererBuilt(log);
  const built = builtSiblings();
  const desk = await startDeskServiceChild({
    ...(built.entry ? { entry: built.entry } : {}),
    launch: {
      dataDir: resolve(options.dataDir ?? join(projectRoot, '.data', 'desk')),
      host: 'web',
      version: (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version,
      testClock: options.testClock,
      ...(options.remote ? { remote: options.remote } : {}),
      // Under Node the keychain (keytar) works in the service process itself.
      keychain: 'service',
      ...(built.syncWorkerFile ? { syncWorkerFile: built.syncWorkerFile } : {}),
      ...(built.certificateWorkerFile ? { certificateWorkers: { workerFile: built.certificateWorkerFile } } : {}),
    },
    log,
  });
  const host = await startWebHost({
    desk,
    rendererDir: RENDERER_DIR,
    port: options.port,
    ...(options.testClock ? { testClock: { advance: (ms: number) => desk.advanceTestClock(ms) } } : {}),
  });
  process.stdout.write(`desk ready at ${host.launchUrl}\n`);
  offerLaunchAddresses(host, log);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping`);
    await host.close();
    await desk.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  runWebDesk(process.argv.slice(2)).catch((error: unknown) => {
    const message = error instanceof LaunchOptionsError || error instanceof Error ? error.message : String(error);
    process.stderr.write(`the web desk could not start: ${message}\n`);
    process.exit(1);
  });
}
