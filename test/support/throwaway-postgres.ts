// A PostgreSQL cluster of a test's own (scripts/postgres.sh in a folder of its own, on a free port),
// for the fault tests that stop and start the database: the shared test server is never stopped.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

const SCRIPT = join(import.meta.dirname, '../../scripts/postgres.sh');
const PGBOUNCER_SCRIPT = join(import.meta.dirname, '../../scripts/pgbouncer.sh');

export interface ThrowawayPostgres {
  /** The cluster's `postgres` database URL. */
  url: string;
  /** Stops it like a crash (`pg_ctl -m immediate`) or cleanly (`fast`). */
  stop(mode?: 'immediate' | 'fast'): Promise<void>;
  /** Starts it again (resolves once it accepts connections). */
  start(): Promise<void>;
  /**
   * Freezes it (SIGSTOP to the postmaster and every process it started): connections stay open and
   * the kernel still accepts bytes, but nothing answers, as with a stuck host. `thaw` sends SIGCONT.
   */
  freeze(): number[];
  thaw(pids: number[]): void;
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

function script(dir: string, args: string[], which = SCRIPT): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'bash',
      [which, ...args],
      { env: { ...process.env, PGDIR: dir, PGBDIR: dir }, encoding: 'utf8', timeout: 60_000 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${which} ${args.join(' ')}: ${stderr || error.message}`)) : resolve(stdout.trim()),
    );
  });
}

/** The postmaster's pid and its children's (from /proc). */
function clusterPids(dir: string): number[] {
  const postmaster = Number(readFileSync(join(dir, 'data/postmaster.pid'), 'utf8').split('\n')[0]);
  const children = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        // the parent pid is the 4th field, after the command name in parentheses
        return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]) === postmaster;
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
  return [postmaster, ...children];
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
    freeze: () => {
      const pids = clusterPids(dir);
      for (const pid of pids) process.kill(pid, 'SIGSTOP');
      return pids;
    },
    thaw: (pids) => {
      for (const pid of pids) process.kill(pid, 'SIGCONT');
    },
    destroy: async () => {
      await script(dir, ['stop', 'immediate']).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ThrowawayPgBouncer {
  /** Its URL (`pgbouncer=true`), the cluster's `postgres` database through it. */
  url: string;
  destroy(): Promise<void>;
}

/** scripts/pgbouncer.sh (transaction pooling) in front of a throwaway cluster, on a free port. */
export async function startThrowawayPgBouncer(postgres: ThrowawayPostgres): Promise<ThrowawayPgBouncer> {
  const dir = `/tmp/registry-pgbouncer-${process.pid}-${randomBytes(4).toString('hex')}`;
  const url = await script(dir, ['start', String(await freePort()), new URL(postgres.url).port], PGBOUNCER_SCRIPT);
  return {
    url,
    destroy: async () => {
      await script(dir, ['stop'], PGBOUNCER_SCRIPT).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
