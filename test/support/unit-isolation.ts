// Setup file of the `unit` test project (vitest.config.ts): a unit test opens no socket and starts
// no process, so the tier stays fast and runs anywhere. Anything that tries fails at once, naming
// the tier to move the file to. Worker threads are allowed (they are neither).
import { createRequire } from 'node:module';
import { syncBuiltinESMExports } from 'node:module';

const require = createRequire(import.meta.url);
const net = require('node:net') as typeof import('node:net');
const dgram = require('node:dgram') as typeof import('node:dgram');
const childProcess = require('node:child_process') as Record<string, unknown>;

export class UnitIsolationError extends Error {
  constructor(what: string) {
    super(`a unit test may not ${what}: move this file to test/integration`);
    this.name = 'UnitIsolationError';
  }
}

function refuse(what: string): never {
  throw new UnitIsolationError(what);
}

// Every TCP or IPC client (net.connect, http.request, fetch through undici, tls) ends in
// Socket#connect, and every server in Server#listen.
net.Socket.prototype.connect = function connect() {
  return refuse('open a socket');
};
net.Server.prototype.listen = function listen() {
  return refuse('listen on a socket');
};
dgram.Socket.prototype.bind = function bind() {
  return refuse('bind a UDP socket');
};
dgram.Socket.prototype.send = function send() {
  return refuse('send UDP datagrams');
};

for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
  childProcess[name] = () => refuse(`start a process (child_process.${name})`);
}
// ESM imports of node:child_process (named or default) see the replaced functions too.
syncBuiltinESMExports();
