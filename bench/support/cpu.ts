// CPU time of processes from /proc/<pid>/stat (user + system), for CPU milliseconds per request:
// unlike requests per second it hardly depends on what else the machine runs, so it projects to
// other machines (N processes on N cores). Linux only; PostgreSQL's backends must run on this machine.
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { PostgresDatabase } from '@platform/db/postgres';

const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** CPU milliseconds the processes used so far (a process gone meanwhile counts 0). */
export function cpuMs(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      // fields after the command name (in parentheses): utime and stime are the 12th and 13th
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // exited
    }
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/** The PostgreSQL backends serving database `name` (every client but the asking one). */
export function backendPids(adminUrl: string, name: string): number[] {
  const db = new PostgresDatabase<unknown>(adminUrl);
  try {
    return db
      .query('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name])
      .map((row) => Number(row.pid));
  } finally {
    db.close();
  }
}
