import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

/**
 * Starts a TypeScript script in its own Node process and resolves with its first JSON stdout line.
 * BENCH_NODE_FLAGS adds Node flags to it, as `--cpu-prof --cpu-prof-dir=<dir>` to profile the servers
 * (Node refuses --cpu-prof in NODE_OPTIONS).
 */
export async function startScript<T>(script: string, args: string[]): Promise<{ child: ChildProcess; info: T; stop(): Promise<void> }> {
  const flags = process.env.BENCH_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', join(root, script), ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const info = await new Promise<T>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
    lines.once('line', (line) => resolve(JSON.parse(line) as T));
  });
  return {
    child,
    info,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
