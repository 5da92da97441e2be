// The desk service process's entry: under Electron a utilityProcess (messages on
// process.parentPort), under Node a forked child (process.send, with the 'advanced' serialization
// so files cross as bytes). electron-vite builds it as out/main/desk-service.js; from source it is
// started through bootstrap.mjs.
import { serveDesk, type HostPort } from './service-side';

interface ParentPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
}

const parentPort = (process as NodeJS.Process & { parentPort?: ParentPort }).parentPort;

function nodePort(): HostPort {
  const send = process.send?.bind(process);
  if (!send) throw new Error('the desk service must be started by its host (no IPC channel)');
  // The host ends this process with `close` (or by going away): the terminal's Ctrl+C reaches the
  // whole process group, and the host closes the service itself.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => {});
  process.on('disconnect', () => process.exit(0));
  return {
    send: (message) => {
      if (process.connected) send(message);
    },
    onMessage: (listener) => process.on('message', listener),
    exit: (code) => {
      // Once what was sent has left (the close reply), not before.
      if (process.connected) send({ type: 'log', line: 'the desk service stopped' }, () => process.exit(code));
      else process.exit(code);
    },
  };
}

function electronPort(port: ParentPort): HostPort {
  return {
    send: (message) => port.postMessage(message),
    onMessage: (listener) => port.on('message', (event) => listener(event.data)),
    exit: (code) => process.exit(code),
  };
}

serveDesk(parentPort ? electronPort(parentPort) : nodePort());
