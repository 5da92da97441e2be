// Retirement certificates rendered in a pool of worker threads (one per core by default), so a
// bulk export (the desk's PDF/ZIP of up to 500 certificates) uses every core and no single render
// holds the thread serving the registry's HTTP. Each worker runs renderCertificatePdf as it is, so
// the bytes are those the same input gives in-process (index.ts: same input, same bytes).
// Workers start when there is work, stay for more, and are unref'd while idle (an idle pool never
// keeps a process alive); a worker that dies fails only the render it was doing and is replaced.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { z } from 'zod';
import type { CertificateInput } from './types';

export type CertificateRenderer = (input: CertificateInput) => Promise<Uint8Array>;

export interface CertificatePoolOptions {
  /** How many worker threads at most (default: the cores available). */
  size?: number;
  /** The built worker script (Electron); without it the worker starts from its TypeScript source through tsx. */
  workerFile?: string;
  /** Passed to renderCertificatePdf (fonts folder). */
  resourcesDir?: string;
}

export interface CertificatePool {
  readonly size: number;
  render: CertificateRenderer;
  close(): Promise<void>;
}

const workerReply = z.discriminatedUnion('ok', [
  z.strictObject({ id: z.number().int(), ok: z.literal(true), bytes: z.instanceof(Uint8Array) }),
  z.strictObject({ id: z.number().int(), ok: z.literal(false), message: z.string() }),
]);

interface Job {
  id: number;
  input: CertificateInput;
  resolve: (bytes: Uint8Array) => void;
  reject: (error: Error) => void;
}

interface PoolWorker {
  worker: Worker;
  job: Job | null;
}

export function createCertificatePool(options: CertificatePoolOptions = {}): CertificatePool {
  const size = Math.max(1, options.size ?? availableParallelism());
  const workers = new Set<PoolWorker>();
  const queue: Job[] = [];
  let nextId = 0;
  let closed = false;

  function spawn(): PoolWorker {
    const workerData = { ...(options.resourcesDir ? { resourcesDir: options.resourcesDir } : {}) };
    const worker = options.workerFile
      ? new Worker(options.workerFile, { workerData })
      : new Worker(new URL('./pool-bootstrap.mjs', import.meta.url), {
          workerData: { ...workerData, entryUrl: new URL('./pool-worker.ts', import.meta.url).href },
        });
    const entry: PoolWorker = { worker, job: null };
    workers.add(entry);
    worker.on('message', (raw: unknown) => {
      const job = entry.job;
      entry.job = null;
      const reply = workerReply.safeParse(raw);
      if (job) {
        if (!reply.success) job.reject(new Error('the certificate worker answered something that is not a certificate'));
        else if (reply.data.id !== job.id) job.reject(new Error('the certificate worker answered another certificate'));
        else if (reply.data.ok) job.resolve(reply.data.bytes);
        else job.reject(new Error(reply.data.message));
      }
      next(entry);
    });
    let failure: Error | undefined;
    worker.on('error', (error) => (failure = error));
    worker.on('exit', (code) => {
      workers.delete(entry);
      const job = entry.job;
      entry.job = null;
      job?.reject(new Error(`the certificate worker stopped (${failure?.message ?? `exit code ${code}`})`));
      if (!closed) dispatch();
    });
    return entry;
  }

  /** Gives `entry` the next queued job, or lets it idle (unref'd). */
  function next(entry: PoolWorker): void {
    const job = queue.shift();
    if (!job) {
      entry.worker.unref();
      return;
    }
    entry.job = job;
    entry.worker.ref();
    entry.worker.postMessage({ id: job.id, input: job.input });
  }

  function dispatch(): void {
    for (const entry of workers) {
      if (queue.length === 0) return;
      if (!entry.job) next(entry);
    }
    while (queue.length > 0 && workers.size < size) next(spawn());
  }

  return {
    size,
    render(input) {
      if (closed) return Promise.reject(new Error('the certificate pool is closed'));
      return new Promise<Uint8Array>((resolve, reject) => {
        queue.push({ id: nextId++, input, resolve, reject });
        dispatch();
      });
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error('the certificate pool is closed'));
      await Promise.all([...workers].map((entry) => entry.worker.terminate()));
    },
  };
}
