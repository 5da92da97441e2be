// Holding every thread of libuv's pool, so that work queued to it (file reads, crypto such as a
// JWT's RSA check) waits: how a test makes a server as busy as a flood would.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export /** Holds every thread of libuv's pool (each blocked opening its own FIFO for reading) until release(). */
function holdThreadPool(): { hold(): void; release(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'h32-pool-'));
  const fifos = Array.from({ length: Number(process.env.UV_THREADPOOL_SIZE) || 4 }, (_, i) => join(dir, `f${i}`));
  let held: Promise<unknown>[] = [];
  for (const fifo of fifos) execFileSync('mkfifo', [fifo]);
  return {
    hold: () => void (held = fifos.map((fifo) => readFile(fifo))),
    release() {
      if (held.length === 0) return;
      held = [];
      for (const fifo of fifos) writeFileSync(fifo, 'x');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
