// The desk service in a Node child process, for the web host (and the tests): the same seam as
// Electron's utilityProcess (electron/main/desk-service.ts), over child_process.fork's IPC channel
// with the 'advanced' serialization (structured clone: files cross as bytes, not base64).
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startDeskServiceProcess, type DeskServiceProcess, type DeskServiceProcessOptions, type ServiceChannel } from './host-side';

/** The entry from source, through tsx (what the web desk and the tests run). */
export const SOURCE_ENTRY = fileURLToPath(new URL('./bootstrap.mjs', import.meta.url));

export function forkDeskService(entry: string = SOURCE_ENTRY): ServiceChannel {
  // No inherited execArgv: a test runner's or tsx's flags are not the service's.
  const child = fork(entry, [], { serialization: 'advanced', execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  // A message written as the child dies fails here; its exit is what the host acts on.
  child.on('error', () => {});
  return {
    send: (message) => {
      if (child.connected) child.send(message);
    },
    onMessage: (listener) => child.on('message', listener),
    onExit: (listener) => child.once('exit', (code, signal) => listener(signal ? `signal ${signal}` : `exit code ${code}`)),
    kill: () => child.kill('SIGKILL'),
  };
}

/** startDeskServiceProcess with a forked Node child. */
export function startDeskServiceChild(options: Omit<DeskServiceProcessOptions, 'spawn'> & { entry?: string }): Promise<DeskServiceProcess> {
  const { entry, ...rest } = options;
  return startDeskServiceProcess({ ...rest, spawn: () => forkDeskService(entry) });
}
