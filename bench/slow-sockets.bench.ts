// Issue 32, item 10: slow sockets. `npm run bench -- slow-sockets`.
// (1) What one slow socket (half its headers sent, then nothing) costs the server: the serving
//     process's RSS with 2,000 of them held open (the per-address cap raised), over 2,000.
// (2) The attack: 5,000 slow sockets from one address (127.0.0.1) at the default cap, while another
//     client (127.0.0.2) asks GET /healthz one request after another: its latency during the flood
//     beside the same without the flood, and how many of the flood's connections were refused. The
//     probe runs in the flooding process, so its slowest figure includes that process's own stalls.
//     BENCH_SLOW_CAP=<n> raises the cap for the flood (n = 100000: every slow socket is held).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { BenchFigure, BenchSuite } from './types';

const root = join(import.meta.dirname, '..');
const HELD = 2_000;
const FLOOD = 5_000;

async function startServe(args: string[]): Promise<{ child: ChildProcess; url: URL; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-slow-'));
  const script = join(root, 'electron/core/registry/cli/serve.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', script, '--data', dir, '--port', '0', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise<URL>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`serve exited with ${code} before it listened`)));
    lines.on('line', (line) => {
      const match = /^listening on (\S+)/.exec(line);
      if (match) resolve(new URL(match[1]!));
    });
  });
  return {
    child,
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

const rssBytes = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

/** Opens a connection that sends half a request and stalls; resolves once connected. */
function slowSocket(url: URL, sockets: Socket[]): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
      resolve();
    });
    socket.on('error', () => resolve());
    socket.resume();
    sockets.push(socket);
  });
}

/** One GET /healthz from 127.0.0.2 on a new connection: milliseconds until the whole answer. */
function probe(url: URL): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const socket = connect({ port: Number(url.port), host: url.hostname, localAddress: '127.0.0.2' }, () =>
      socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    );
    socket.resume();
    socket.on('close', () => resolve(performance.now() - started));
    socket.on('error', reject);
  });
}

async function probes(url: URL, until: () => boolean, atLeast: number): Promise<number[]> {
  const out: number[] = [];
  while (out.length < atLeast || !until()) out.push(await probe(url));
  return out.sort((a, b) => a - b);
}

async function memoryPerSocket(): Promise<number> {
  const server = await startServe(['--max-connections-per-address', String(HELD + 100)]);
  const sockets: Socket[] = [];
  try {
    await probes(server.url, () => true, 20); // warm
    const before = rssBytes(server.child.pid!);
    for (let i = 0; i < HELD; i += 100) await Promise.all(Array.from({ length: 100 }, () => slowSocket(server.url, sockets)));
    await probes(server.url, () => true, 5); // the server has accepted them all by now
    return (rssBytes(server.child.pid!) - before) / HELD;
  } finally {
    for (const s of sockets) s.destroy();
    await server.stop();
  }
}

async function flood(): Promise<{ quiet: number[]; during: number[]; refused: number }> {
  const server = await startServe(process.env.BENCH_SLOW_CAP ? ['--max-connections-per-address', process.env.BENCH_SLOW_CAP] : []);
  const sockets: Socket[] = [];
  try {
    const quiet = await probes(server.url, () => true, 50);
    let opened = false;
    const opening = (async () => {
      for (let i = 0; i < FLOOD; i += 250) await Promise.all(Array.from({ length: 250 }, () => slowSocket(server.url, sockets)));
      opened = true;
    })();
    const during = await probes(server.url, () => opened, 50);
    await opening;
    await probes(server.url, () => true, 5); // the last refusals' FINs are in
    const refused = sockets.filter((s) => s.destroyed || s.readableEnded).length;
    return { quiet, during, refused };
  } finally {
    for (const s of sockets) s.destroy();
    await server.stop();
  }
}

const at = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

export const suite: BenchSuite = {
  name: 'slow-sockets',
  async run(): Promise<BenchFigure[]> {
    const perSocket = await memoryPerSocket();
    const { quiet, during, refused } = await flood();
    const name = 'slow-sockets';
    return [
      { suite: name, name: `server RSS per slow socket (${HELD} held)`, value: perSocket / 1024, unit: 'KiB' },
      {
        suite: name,
        name: `another client's GET /healthz p50 during ${FLOOD} slow sockets`,
        value: at(during, 50),
        unit: 'ms',
        floor: at(quiet, 50),
        ratio: at(during, 50) / at(quiet, 50),
      },
      {
        suite: name,
        name: `the same, slowest of ${during.length}`,
        value: at(during, 100),
        unit: 'ms',
        floor: at(quiet, 100),
      },
      { suite: name, name: `flood connections answered 429 and closed at once`, value: refused, unit: `of ${FLOOD}` },
    ];
  },
};
