// What postgres-processes.test.ts does to its child processes, apart from the servers themselves
// (registry-processes.ts): the admin CLI run without blocking the test's process, waiting for a
// process's next JSON line of one kind, a request sent from another loopback address, and the
// third process that claims a finished transaction and hangs holding it (claim-and-hang.ts).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import type { Interface } from 'node:readline';
import { builtEntry } from '@scripts/build-web-desk';

const CLAIMER_SCRIPT = join(import.meta.dirname, 'claim-and-hang.ts');
// `npm run admin`, bundled by the integration tier's global setup (test/support/build-node-bundles.ts).
const ADMIN = builtEntry('admin');

/** Runs the admin CLI without blocking this process (its servers' keep-alive sockets stay served). */
export function admin(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--enable-source-maps', ADMIN, ...args], { encoding: 'utf8', timeout: 30_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The first line of `lines` that `accept` takes (answering non-undefined). */
export function nextLine<T>(lines: Interface, accept: (message: Record<string, unknown>) => T | undefined): Promise<T> {
  return new Promise((resolve) => {
    const onLine = (line: string) => {
      const value = accept(JSON.parse(line) as Record<string, unknown>);
      if (value === undefined) return;
      lines.off('line', onLine);
      resolve(value);
    };
    lines.on('line', onLine);
  });
}

/** The status of a GET of `path` on `serverUrl` with `bearer`, sent from `localAddress`. */
export function statusFrom(localAddress: string, serverUrl: string, path: string, bearer: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const { hostname, port } = new URL(serverUrl);
    const req = request({ host: hostname, port, localAddress, path, headers: { authorization: `Bearer ${bearer}` } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.once('error', reject);
    req.end();
  });
}

/** Starts claim-and-hang.ts on `job` (its stdout piped: it says what it claimed there). */
export function startClaimer(job: { url: string; organizationId: string; receiverId: string; reservationIds: string[] }): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', CLAIMER_SCRIPT, JSON.stringify(job)], { stdio: ['ignore', 'pipe', 'inherit'] });
}
