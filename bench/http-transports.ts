// Not a benchmark of the suite: a one-off measurement of the desk's CPU per GET of a ~3 KB JSON
// answer from a loopback server (in a child process, so only the client's CPU is counted), 8 in
// flight, for each HTTP transport the sync worker could use. `npx tsx bench/http-transports.ts`.
// undici's own `request` is measured where npm's undici is installed (today only as a dependency of
// a dependency; the desk does not use it).
import { fork } from 'node:child_process';
import http from 'node:http';

const REQUESTS = Number(process.env.REQUESTS ?? 20_000);
const IN_FLIGHT = 8;
const ROUNDS = Number(process.env.ROUNDS ?? 3);

if (process.argv[2] === 'server') {
  const body = JSON.stringify({
    items: Array.from({ length: 24 }, (_, i) => ({
      id: `project-${i}`,
      name: `Project number ${i}`,
      amount: i * 1_000_000,
      note: 'x'.repeat(60),
    })),
  }).slice(0, 3000);
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => process.send!((server.address() as { port: number }).port));
} else {
  const child = fork(new URL(import.meta.url).pathname, ['server'], { execArgv: ['--import', 'tsx'] });
  const port = await new Promise<number>((resolve) => child.once('message', (m) => resolve(m as number)));
  const base = `http://127.0.0.1:${port}`;
  const headers = { accept: 'application/json', 'accept-encoding': 'identity', authorization: 'Bearer abc' };

  const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  const undici = await import('undici').catch(() => undefined);
  const dispatcher = undici && new undici.Agent({ connections: IN_FLIGHT });
  const transports: Record<string, (i: number) => Promise<string>> = {
    fetch: async (i) => {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), 30_000);
      const response = await fetch(`${base}/projects/${i}?x=1`, { headers, signal: controller.signal });
      const text = await response.text();
      clearTimeout(timer);
      return text;
    },
    'node:http': (i) =>
      new Promise((resolve, reject) => {
        const req = http.request(`${base}/projects/${i}?x=1`, { agent, headers, timeout: 30_000 }, (res) => {
          res.setEncoding('utf8');
          let text = '';
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve(text));
          res.on('error', reject);
        });
        req.on('error', reject);
        req.on('timeout', () => req.destroy(new Error('timeout')));
        req.end();
      }),
  };
  if (undici && dispatcher)
    transports['undici.request'] = async (i) => {
      const { body } = await undici.request(`${base}/projects/${i}?x=1`, {
        dispatcher,
        headers,
        headersTimeout: 30_000,
        bodyTimeout: 30_000,
      });
      return body.text();
    };

  async function run(send: (i: number) => Promise<string>, n: number) {
    let next = 0;
    const lane = async () => {
      while (next < n) await send(next++);
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  }
  for (const send of Object.values(transports)) await run(send, 2_000); // warm up
  const totals: Record<string, { cpu: number; wall: number }> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, send] of Object.entries(transports)) {
      global.gc?.();
      const cpu0 = process.cpuUsage();
      const wall0 = performance.now();
      await run(send, REQUESTS);
      const cpu = process.cpuUsage(cpu0);
      const wall = performance.now() - wall0;
      const t = (totals[name] ??= { cpu: 0, wall: 0 });
      t.cpu += cpu.user + cpu.system;
      t.wall += wall;
      console.log(
        `round ${round} ${name.padEnd(15)} ${((cpu.user + cpu.system) / REQUESTS).toFixed(1)} µs CPU/request, ${((wall * 1000) / REQUESTS).toFixed(1)} µs wall/request`,
      );
    }
  }
  for (const [name, t] of Object.entries(totals))
    console.log(
      `mean ${name.padEnd(15)} ${(t.cpu / ROUNDS / REQUESTS).toFixed(1)} µs CPU/request, ${((t.wall * 1000) / ROUNDS / REQUESTS).toFixed(1)} µs wall/request`,
    );
  child.kill();
  await dispatcher?.close();
  agent.destroy();
}
