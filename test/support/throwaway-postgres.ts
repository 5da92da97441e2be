// A PostgreSQL cluster of a test's own (scripts/postgres.sh in a folder of its own, on a free port),
// for the fault tests that stop and start the database: the shared test server is never stopped.
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

const SCRIPT = join(import.meta.dirname, '../../scripts/postgres.sh');

export interface ThrowawayPostgres {
  /** The cluster's `postgres` database URL. */
  url: string;
  /** Stops it like a crash (`pg_ctl -m immediate`) or cleanly (`fast`). */
  stop(mode?: 'immediate' | 'fast'): Promise<void>;
  /** Starts it again (resolves once it accepts connections). */
  start(): Promise<void>;
  /** Stops it and deletes its folder. */
  destroy(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function script(dir: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'bash',
      [SCRIPT, ...args],
      { env: { ...process.env, PGDIR: dir }, encoding: 'utf8', timeout: 60_000 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`postgres.sh ${args.join(' ')}: ${stderr || error.message}`)) : resolve(stdout.trim()),
    );
  });
}

export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const dir = `/tmp/registry-faults-${process.pid}-${randomBytes(4).toString('hex')}`;
  const port = await freePort();
  const url = await script(dir, ['start', String(port)]);
  return {
    url,
    stop: async (mode = 'immediate') => {
      await script(dir, ['stop', mode]);
    },
    start: async () => {
      await script(dir, ['start', String(port)]);
    },
    destroy: async () => {
      await script(dir, ['stop', 'immediate']).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
