// Registry server processes for the tests that need real ones (several on one PostgreSQL database,
// or one killed and restarted on a SQLite data folder): each runs test/support/warehouse-server.ts
// (`node --import tsx`, its own process) and prints its address, then a line each time its finish
// queue empties (or has one left).
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';

const SERVER_SCRIPT = join(import.meta.dirname, 'warehouse-server.ts');

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Its stdout, line by line (JSON: {"queueEmpty": true}, {"queueLeft": 1}). */
  lines: Interface;
  /** What it wrote to stderr so far (its log). */
  stderr: () => string;
}

/** Starts one server on `databaseUrl` (or a SQLite data folder; `env`: RATE_LIMIT, WAREHOUSE_WORKER); resolves once it listens. */
export async function startServerProcess(databaseUrl: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER_SCRIPT, databaseUrl], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const lines = createInterface({ input: child.stdout });
  const line = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
  });
  return { child, url: (JSON.parse(line) as { url: string }).url, lines, stderr: () => stderr };
}

/** Resolves with the exit code once `child` has exited (at once if it has). */
export function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** SIGTERM, and resolves once it has exited. */
export async function stopServerProcess(child: ChildProcess): Promise<void> {
  const done = exited(child);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  await done;
}
