// The child half of test/support/utility-process.ts: installs process.parentPort as Electron gives
// it to a utility process, hides process.send (a utility process has none), then loads the module.
import { EventEmitter } from 'node:events';
import { pathToFileURL } from 'node:url';
import { MessageChannel } from 'node:worker_threads';

const send = process.send.bind(process);
const parentPort = new EventEmitter();
const relayed = new Map();
parentPort.postMessage = (message) => {
  if (process.connected) send({ kind: 'message', data: message, ports: [] });
};
process.on('message', (wire) => {
  if (wire.kind === 'port') return relayed.get(wire.port)?.postMessage(wire.data);
  const ports = wire.ports.map((id) => {
    const { port1, port2 } = new MessageChannel();
    relayed.set(id, port1);
    port1.on('message', (data) => process.connected && send({ kind: 'port', port: id, data }));
    // A utility process lives until it exits, not while a port is open.
    port1.unref();
    return port2;
  });
  deliver({ data: wire.data, ports });
});
// Like Electron's parentPort (a message port), messages wait until a 'message' listener starts it.
const queued = [];
function deliver(event) {
  if (parentPort.listenerCount('message') > 0) parentPort.emit('message', event);
  else queued.push(event);
}
parentPort.on('newListener', (name) => {
  if (name === 'message') queueMicrotask(() => queued.splice(0).forEach((event) => parentPort.emit('message', event)));
});
// A utility process ends with its parent.
process.on('disconnect', () => process.exit(0));
process.parentPort = parentPort;
delete process.send;
process.argv.splice(1, 2, process.argv[2]);
await import(pathToFileURL(process.argv[1]).href);
