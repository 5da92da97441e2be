// Retirement certificates rendered in a pool of worker threads (one per core by default), so a
// bulk export (the desk's PDF/ZIP of up to 500 certificates) uses every core and no single render
// holds the thread serving the registry's HTTP. Each worker runs renderCertificatePdf as it is, so
// the bytes are those the same input gives in-process (index.ts: same input, same bytes).
// Workers start when there is work, stay for more, and are unref'd while idle (an idle pool never
// keeps a process alive); a worker that dies fails only the renders it had been sent and is replaced.
// Each worker is sent up to JOBS_PER_WORKER certificates at once: it renders them one after the
// other, and the next is already in its inbox when one finishes, so it does not wait for this
// thread (busy with the registry's HTTP, or descheduled: it shares the cores with the workers) to
// hand it more work.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { z } from 'zod';
import { renderCertificatePdf } from './index';
import type { CertificateInput } from './types';

export type CertificateRenderer = (input: CertificateInput) => Promise<Uint8Array>;

export interface CertificatePoolOptions {
  /**
   * How many worker threads at most (default: the cores available). 0: no workers, every
   * certificate rendered in the calling thread (the single-thread floor the benchmark compares with).
   */
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
  /** Sent and not answered yet, by id. */
  jobs: Map<number, Job>;
}

/**
 * Certificates sent to one worker at once: one rendering, two waiting in its inbox. With one
 * waiting, a worker ran out of work about one certificate in twenty (a timeline of a warm
 * 500-certificate export on 2 cores): this thread, sharing the cores with both workers, took
 * longer than a render to answer one and hand it the next. Depth costs little at the end: the
 * next certificate always goes to the least busy worker, so they finish within about one render.
 */
const JOBS_PER_WORKER = 3;

export function createCertificatePool(options: CertificatePoolOptions = {}): CertificatePool {
  if (options.size === 0) return inThreadPool(options.resourcesDir);
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
    const entry: PoolWorker = { worker, jobs: new Map() };
    workers.add(entry);
    let failure: Error | undefined;
    worker.on('message', (raw: unknown) => {
      const reply = workerReply.safeParse(raw);
      const job = reply.success ? entry.jobs.get(reply.data.id) : undefined;
      if (!reply.success || !job) {
        // Nothing to match it with: the worker is not doing what it was asked, so it is replaced.
        failure = new Error(
          reply.success ? 'it answered a certificate it was not sent' : 'it answered something that is not a certificate',
        );
        void worker.terminate();
        return;
      }
      entry.jobs.delete(job.id);
      if (reply.data.ok) job.resolve(reply.data.bytes);
      else job.reject(new Error(reply.data.message));
      dispatch();
      if (entry.jobs.size === 0) entry.worker.unref();
    });
    worker.on('error', (error) => (failure = error));
    worker.on('exit', (code) => {
      workers.delete(entry);
      const lost = [...entry.jobs.values()];
      entry.jobs.clear();
      for (const job of lost) job.reject(new Error(`the certificate worker stopped (${failure?.message ?? `exit code ${code}`})`));
      if (!closed) dispatch();
    });
    return entry;
  }

  function send(entry: PoolWorker, job: Job): void {
    entry.jobs.set(job.id, job);
    entry.worker.ref();
    entry.worker.postMessage({ id: job.id, input: job.input });
  }

  /** Hands queued jobs out: to a new worker while every running one is busy (up to `size`), else to the least busy one with room. */
  function dispatch(): void {
    while (queue.length > 0) {
      let least: PoolWorker | undefined;
      for (const entry of workers) if (!least || entry.jobs.size < least.jobs.size) least = entry;
      if ((!least || least.jobs.size > 0) && workers.size < size) send(spawn(), queue.shift()!);
      else if (least && least.jobs.size < JOBS_PER_WORKER) send(least, queue.shift()!);
      else return;
    }
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

/** No workers: renderCertificatePdf in the calling thread, with the pool's interface. */
function inThreadPool(resourcesDir: string | undefined): CertificatePool {
  let closed = false;
  return {
    size: 0,
    render(input) {
      if (closed) return Promise.reject(new Error('the certificate pool is closed'));
      return renderCertificatePdf(input, resourcesDir ? { resourcesDir } : {});
    },
    close() {
      closed = true;
      return Promise.resolve();
    },
  };
}
