// The page's side of the wallet worker: one worker per page, requests matched to answers by id.
import type { WalletCommand, WalletResponse } from './protocol';

type Pending = { resolve(r: Extract<WalletResponse, { kind: 'done' }>): void; reject(e: Error): void; onProgress?: (p: number) => void };

let worker: Worker | null = null;
let nextId = 1;
const pending = new Map<number, Pending>();

function getWorker(): Worker {
  if (worker) return worker;
  worker = new Worker(new URL('./wallet.worker.ts', import.meta.url), { type: 'module', name: 'wallet' });
  worker.onmessage = (event: MessageEvent<WalletResponse>) => {
    const response = event.data;
    const waiting = pending.get(response.id);
    if (!waiting) return;
    if (response.kind === 'progress') {
      waiting.onProgress?.(response.progress);
      return;
    }
    pending.delete(response.id);
    if (response.kind === 'error') waiting.reject(new Error(response.message));
    else waiting.resolve(response);
  };
  worker.onerror = (event) => {
    for (const waiting of pending.values()) waiting.reject(new Error(`The wallet worker stopped: ${event.message || 'unknown error'}`));
    pending.clear();
    worker = null;
  };
  return worker;
}

export function walletRequest(
  command: WalletCommand,
  onProgress?: (progress: number) => void,
): Promise<Extract<WalletResponse, { kind: 'done' }>> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject, onProgress });
    getWorker().postMessage({ ...command, id });
  });
}
