// Child processes of a test (the registry, the web desk): started in their own process group so
// stopping one stops its children (the desk service, a keyring daemon), with their output kept for failure reports.
import { spawn, type ChildProcess } from 'node:child_process';

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
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      return;
    }
    const forced = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 5000);
    await exited;
    clearTimeout(forced);
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
