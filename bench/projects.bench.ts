// Issue 2 bench: GET /projects?limit=100 on a --scale 100 registry (about 10,000 projects) with 32
// concurrent connections, beside the floor: a route on the same server sending the same bytes from
// memory. The server runs in its own process so the load generator does not share its event loop.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { BenchFigure, BenchSuite } from './types';
import { scaledRegistryCopy } from './support/scaled-registry';
import { startScript } from './support/processes';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
/** `PROJECTS_BENCH_SCALE=10` for a quick run on a busy machine (a page is 100 projects at any scale). */
const SCALE = Number(process.env.PROJECTS_BENCH_SCALE ?? 100);

/** wrk's latency figures carry their unit: 850.12us, 8.04ms, 1.20s. */
function milliseconds(text: string): number {
  const match = /^([\d.]+)(us|ms|s)$/.exec(text.trim());
  if (!match) throw new Error(`unreadable wrk latency ${text}`);
  const value = Number(match[1]);
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
}

/**
 * wrk (Debian's package) when installed: written in C, it leaves the 2 cores to the server, where
 * autocannon (Node) is itself the bottleneck and caps even the floor. autocannon otherwise.
 */
function loadWithWrk(url: string, token: string, headers: Record<string, string>) {
  const extra = Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const run = spawnSync('wrk', ['-t1', '-c32', `-d${DURATION_S}s`, '--latency', '-H', `authorization: Bearer ${token}`, ...extra, url], {
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`wrk failed: ${run.stderr}`);
  const out = run.stdout;
  if (/Non-2xx or 3xx responses/.test(out) || /Socket errors/.test(out)) throw new Error(`${url}: wrk saw errors\n${out}`);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const p50 = milliseconds(/^\s+50%\s+(\S+)/m.exec(out)?.[1] ?? '');
  const p99 = milliseconds(/^\s+99%\s+(\S+)/m.exec(out)?.[1] ?? '');
  return { rps, p50, p99 };
}

const hasWrk = spawnSync('wrk', ['--version'], { encoding: 'utf8' }).error === undefined;

/** CPU time (ms) process `pid` has used so far, from /proc (Linux); NaN elsewhere. */
function cpuMsOf(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').pop()!.split(' ');
    // utime and stime, in clock ticks (100 a second on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

async function load(url: string, token: string, headers: Record<string, string> = {}) {
  if (hasWrk) return loadWithWrk(url, token, headers);
  const result = await autocannon({
    url,
    connections: 32,
    duration: DURATION_S,
    headers: { authorization: `Bearer ${token}`, ...headers },
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

export const suite: BenchSuite = {
  name: `registry: GET /projects?limit=100 at --scale ${SCALE}`,
  async run() {
    const data = await scaledRegistryCopy(SCALE);
    const server = await startScript<{ url: string; token: string; bytes: number }>('bench/support/registry-server.ts', [data.dir]);
    try {
      const { url, token, bytes } = server.info;
      await load(`${url}/projects?limit=100&page=0`, token); // warm-up is part of neither figure
      const floor = await load(`${url}/__floor__/projects`, token);
      const pid = server.child.pid;
      let cpu = cpuMsOf(pid);
      const real = await load(`${url}/projects?limit=100&page=0`, token);
      const realCpuMs = cpuMsOf(pid) - cpu;
      // The same answers asked for gzip-compressed (issue 31): the registry's CPU per request.
      cpu = cpuMsOf(pid);
      const gzipped = await load(`${url}/projects?limit=100&page=0`, token, { 'accept-encoding': 'gzip' });
      const gzippedCpuMs = cpuMsOf(pid) - cpu;
      const perRequest = (cpuMs: number, rps: number) => cpuMs / (rps * DURATION_S);
      const s = 'projects';
      const figures: BenchFigure[] = [
        {
          suite: s,
          name: `throughput (${(bytes / 1024).toFixed(0)} KiB answers, 32 connections, ${hasWrk ? 'wrk' : 'autocannon'})`,
          value: real.rps,
          unit: 'req/s',
          floor: floor.rps,
          ratio: real.rps / floor.rps,
          target: '>= 0.20 of floor',
          pass: real.rps / floor.rps >= 0.2,
        },
        {
          suite: s,
          name: 'throughput, answers asked for gzip',
          value: gzipped.rps,
          unit: 'req/s',
          floor: floor.rps,
          ratio: gzipped.rps / floor.rps,
          target: '>= 0.7 of floor',
          pass: gzipped.rps / floor.rps >= 0.7,
        },
        { suite: s, name: 'registry CPU per request, uncompressed', value: perRequest(realCpuMs, real.rps), unit: 'ms' },
        { suite: s, name: 'registry CPU per request, gzip', value: perRequest(gzippedCpuMs, gzipped.rps), unit: 'ms' },
        { suite: s, name: 'latency p50', value: real.p50, unit: 'ms', floor: floor.p50 },
        { suite: s, name: 'latency p99', value: real.p99, unit: 'ms', floor: floor.p99, target: '< 100 ms', pass: real.p99 < 100 },
      ];
      if (data.seedSeconds !== null)
        figures.push({
          suite: s,
          name: `seed --scale ${SCALE} (uncached run only)`,
          value: data.seedSeconds,
          unit: 's',
          target: '< 60 s',
          pass: data.seedSeconds < 60,
        });
      return figures;
    } finally {
      await server.stop();
      data.remove();
    }
  },
};
