// The host's side of the desk service in a utilityProcess, as a ServiceChannel: the parent-side
// UtilityProcess API (postMessage; 'message' with the data itself; 'exit' with a numeric code;
// kill). No 'electron' import, so test/integration/desk/utility-process.test.ts runs this exact
// code under Node against a stand-in with utilityProcess's semantics.
import type { ServiceChannel } from '../core/desk/process/host-side';

/** The part of Electron's UtilityProcess the channel uses. */
export interface UtilityProcessLike {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  once(event: 'exit', listener: (code: number) => void): unknown;
  kill(): boolean;
}

export function utilityChannel(child: UtilityProcessLike): ServiceChannel {
  let exited = false;
  child.once('exit', () => (exited = true));
  return {
    // After the process has gone, Electron throws on postMessage; the host acts on the exit instead.
    send: (message) => {
      if (!exited) child.postMessage(message);
    },
    onMessage: (listener) => void child.on('message', listener),
    onExit: (listener) => void child.once('exit', (code) => listener(`exit code ${code}`)),
    kill: () => void child.kill(),
  };
}
