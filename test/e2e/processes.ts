// Child processes of a test (the registry, the web desk): started in their own process group so
// stopping one stops its children (the desk service, a keyring daemon), with their output kept for failure reports.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { expect } from '@playwright/test';

export interface Started {
  child: ChildProcess;
  /** The first match of `ready` in stdout. */
  match: RegExpMatchArray;
  output(): string;
  stop(): Promise<void>;
}

export function startProcess(
  name: string,
  command: string,
  args: string[],
  options: { cwd: string; ready: RegExp; timeoutMs: number; env?: NodeJS.ProcessEnv },
): Promise<Started> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stdout = '';
  // Stops the whole process group and resolves once none of it is left. The leader can exit
  // before its children: under 'keychain' it is dbus-run-session, which ends on SIGTERM while the
  // desk it started is still closing its SQLite files, so waiting for the leader alone let a test
  // remove a data folder the desk was still writing into (ENOTEMPTY).
  const stop = async () => {
    if (child.pid === undefined) return;
    const group = -child.pid;
    const leaderExited =
      child.exitCode !== null || child.signalCode !== null
        ? Promise.resolve()
        : new Promise<void>((resolve) => child.once('exit', () => resolve()));
    if (!signalGroup(group, 'SIGTERM')) return;
    if (!(await groupGone(child.pid, 5000))) {
      signalGroup(group, 'SIGKILL');
      if (!(await groupGone(child.pid, 5000))) throw new Error(`${name}: processes of group ${child.pid} still running after SIGKILL`);
    }
    await leaderExited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${name} did not become ready within ${options.timeoutMs} ms. Output:\n${output}`));
    }, options.timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      stdout += chunk;
      const match = stdout.match(options.ready);
      if (match) {
        clearTimeout(timer);
        stdout = '';
        resolve({ child, match, output: () => output, stop });
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code ?? signal}) before it was ready. Output:\n${output}`));
    });
  });
}

/** Sends `signal` to a process group; false when the group no longer exists. */
function signalGroup(group: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(group, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Waits until no live process of the group is left, up to `timeoutMs`. Read from /proc rather than
 * with signal 0: a member that has exited but waits to be reaped (a zombie) is done with its files,
 * and a container's first process may never reap it.
 */
async function groupGone(group: number, timeoutMs: number): Promise<boolean> {
  try {
    await expect.poll(() => liveMembers(group), { timeout: timeoutMs, intervals: [25] }).toBe(0);
    return true;
  } catch {
    return false;
  }
}

function liveMembers(group: number): number {
  let live = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited while we looked
    }
    // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses, so split after the last ')'.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === group && state !== 'Z') live += 1;
  }
  return live;
}
