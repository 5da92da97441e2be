// A stand-in for Electron's utilityProcess under Node (there is no Electron binary here), keeping
// the semantics the desk relies on, which child_process.fork does not have:
// - the child has NO process.send: it talks through process.parentPort (postMessage, and 'message'
//   events whose `data` is the message and `ports` the MessagePorts transferred with it);
// - the parent's UtilityProcess has postMessage(message, transfer?) with MessagePorts only, emits
//   'spawn', 'message' with the data itself, and 'exit' with a number: the exit code, or on POSIX
//   the signal's number when the process was killed (as Chromium's termination status reports it);
//   kill() sends SIGTERM and answers whether it could;
// - messages are structured clones (child_process's 'advanced' serialization), and a transferred
//   port keeps working across the process boundary (relayed over the IPC channel by the stand-in).
import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { constants } from 'node:os';
import { MessagePort } from 'node:worker_threads';

const CHILD_LAUNCHER = new URL('./utility-process-child.mjs', import.meta.url).pathname;

/** Over the IPC channel: a parentPort message (with the ids of ports sent along) or a relayed port message. */
export type Wire = { kind: 'message'; data: unknown; ports: number[] } | { kind: 'port'; port: number; data: unknown };

export class StandInUtilityProcess extends EventEmitter {
  readonly pid: number | undefined;
  private readonly child: ChildProcess;
  private readonly ports = new Map<number, MessagePort>();
  private nextPort = 0;
  private exited = false;

  constructor(modulePath: string, args: string[] = [], options: { env?: NodeJS.ProcessEnv } = {}) {
    super();
    this.child = fork(CHILD_LAUNCHER, [modulePath, ...args], {
      serialization: 'advanced',
      execArgv: [],
      env: options.env ?? process.env,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.pid = this.child.pid;
    this.child.on('error', () => {});
    this.child.once('spawn', () => this.emit('spawn'));
    this.child.on('message', (wire: Wire) => {
      if (wire.kind === 'message') this.emit('message', wire.data);
      else this.ports.get(wire.port)?.postMessage(wire.data);
    });
    this.child.once('exit', (code, signal) => {
      this.exited = true;
      for (const port of this.ports.values()) port.close();
      this.emit('exit', code ?? (signal ? constants.signals[signal] : 0));
    });
  }

  postMessage(message: unknown, transfer: MessagePort[] = []): void {
    if (this.exited) throw new Error('the utility process has exited');
    for (const port of transfer) if (!(port instanceof MessagePort)) throw new TypeError('only MessagePorts can be transferred');
    const ids = transfer.map((port) => {
      const id = this.nextPort++;
      this.ports.set(id, port);
      port.on('message', (data) => this.child.connected && this.child.send({ kind: 'port', port: id, data } satisfies Wire));
      return id;
    });
    this.child.send({ kind: 'message', data: message, ports: ids } satisfies Wire);
  }

  kill(): boolean {
    return this.exited ? false : this.child.kill('SIGTERM');
  }
}

/** utilityProcess.fork's shape. */
export const standInUtilityProcess = {
  fork: (modulePath: string, args: string[] = [], options: { env?: NodeJS.ProcessEnv } = {}) =>
    new StandInUtilityProcess(modulePath, args, options),
};
