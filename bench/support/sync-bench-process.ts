// The sync bench's parent side of its child process: building what the child runs, and running
// one job in it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { ChildJob, ChildResult } from './sync-bench-job';

/** Runs one job in a child process; `onMark` hears the marks it writes on stderr (the rest is passed on). */
export function runChildOf(childFile: string, job: ChildJob, onMark?: (mark: string) => void): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    // The key goes through stdin, never the command line.
    // SYNC_BENCH_NODE_FLAGS (e.g. "--max-semi-space-size=32") tries V8 settings on the child only.
    const flags = (process.env.SYNC_BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
    const child = spawn(process.execPath, [...flags, childFile, '--sync-bench-child'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    if (!onMark) child.stderr.pipe(process.stderr);
    else
      createInterface({ input: child.stderr }).on('line', (line) =>
        line.startsWith('@@sync-bench') ? onMark(line) : process.stderr.write(`${line}\n`),
      );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => {
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()!) as ChildResult);
      } catch {
        reject(new Error(`sync bench child exited with ${code}: ${out.slice(0, 500)}`));
      }
    });
    child.stdin.end(JSON.stringify(job));
  });
}

/** Builds the app (electron-vite) so out/main/sync-worker.js is current, and returns its path. */
export function buildSyncWorker(): string {
  const root = join(import.meta.dirname, '..', '..');
  const built = spawnSync(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const file = join(root, 'out', 'main', 'sync-worker.js');
  if (built.status !== 0 || !existsSync(file)) throw new Error('building the app (electron-vite build) failed; see above');
  return file;
}

/**
 * sync-bench-child.ts bundled for Node (vite SSR, as `npm run build:web` bundles the web desk), so the child
 * runs as the desk ships, not under tsx: tsx's loader thread and its compiled modules took ~60 MB of
 * the child's RSS, which the peak-RSS figure is about the sync's own. Returns the bundle's path.
 */
export async function buildBenchChild(): Promise<string> {
  const outDir = join(import.meta.dirname, '..', '..', 'out', 'bench');
  // (imported here, not at the top: the bundled child must not load vite)
  const { bundleForNode } = await import('@scripts/build-web-desk');
  await bundleForNode({ 'sync-bench-child': join(import.meta.dirname, 'sync-bench-child.ts') }, outDir);
  return join(outDir, 'sync-bench-child.js');
}
