// The desk's log file in the app's data folder (<userData>/logs/desk.log), so a user who reports
// "it stopped" has something to send. Each line is timestamped from the injected clock and passed
// through redactSecrets; when the file passes maxBytes it becomes desk.1.log (desk.1 becomes
// desk.2, …) and the oldest beyond `keep` is deleted. Writes are synchronous appends: the shell
// logs a few lines a minute, and a line written just before a crash must be on disk.
import { appendFileSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '@platform/clock';
import { redactSecrets } from './redact';

export interface RotatingLogOptions {
  dir: string;
  clock: Clock;
  fileName?: string;
  maxBytes?: number;
  /** Rotated files kept besides the current one. */
  keep?: number;
  /** How many recent error lines `recentErrors` remembers (for Copy diagnostics). */
  errorsKept?: number;
}

export interface RotatingLog {
  readonly dir: string;
  readonly file: string;
  write(line: string, level?: 'info' | 'error'): void;
  recentErrors(): string[];
}

export const DEFAULT_MAX_BYTES = 1024 * 1024;

export function createRotatingLog(options: RotatingLogOptions): RotatingLog {
  const fileName = options.fileName ?? 'desk.log';
  const base = fileName.replace(/\.log$/, '');
  const file = join(options.dir, fileName);
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const keep = options.keep ?? 3;
  const errors: string[] = [];
  mkdirSync(options.dir, { recursive: true, mode: 0o700 });

  const rotated = (n: number) => join(options.dir, `${base}.${n}.log`);
  function rotate(): void {
    rmSync(rotated(keep), { force: true });
    for (let n = keep - 1; n >= 1; n -= 1) {
      try {
        renameSync(rotated(n), rotated(n + 1));
      } catch {
        // Not there yet.
      }
    }
    renameSync(file, keep > 0 ? rotated(1) : `${file}.old`);
    if (keep === 0) rmSync(`${file}.old`, { force: true });
  }

  function size(): number {
    try {
      return statSync(file).size;
    } catch {
      return 0;
    }
  }

  return {
    dir: options.dir,
    file,
    write(line, level = 'info') {
      const clean = redactSecrets(line).replace(/\r?\n/g, ' ⏎ ');
      const entry = `${new Date(options.clock.now()).toISOString()} ${level === 'error' ? 'ERROR' : 'info '} ${clean}\n`;
      if (level === 'error') {
        errors.push(entry.trimEnd());
        errors.splice(0, Math.max(0, errors.length - (options.errorsKept ?? 10)));
      }
      if (size() + Buffer.byteLength(entry) > maxBytes && size() > 0) rotate();
      appendFileSync(file, entry, { mode: 0o600 });
    },
    recentErrors: () => [...errors],
  };
}
