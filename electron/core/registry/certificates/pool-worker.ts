// One certificate worker thread of pool.ts: renders each certificate it is sent and answers its
// bytes (the buffer is transferred, not copied).
import { parentPort, workerData } from 'node:worker_threads';
import { renderCertificatePdf } from './index';
import type { CertificateInput } from './types';

const port = parentPort;
if (!port) throw new Error('the certificate worker runs in a worker thread of the certificate pool');
const { resourcesDir } = (workerData ?? {}) as { resourcesDir?: string };

port.on('message', (message: { id: number; input: CertificateInput }) => {
  renderCertificatePdf(message.input, resourcesDir ? { resourcesDir } : {}).then(
    (bytes) => port.postMessage({ id: message.id, ok: true, bytes }, [bytes.buffer as ArrayBuffer]),
    (error: unknown) => port.postMessage({ id: message.id, ok: false, message: error instanceof Error ? error.message : String(error) }),
  );
});
