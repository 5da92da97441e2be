// HTTP load from wrk (C, one thread per process served), which leaves the cores to the servers and
// the database: a Lua script of requests sent in turn, and runs of it against one or more servers.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);

export interface WrkRequest {
  method: 'GET' | 'POST';
  path: string;
  token?: string;
  body?: string;
}

/**
 * A wrk script that sends the requests in turn (each thread cycles through all of them; built in
 * `init`, once wrk knows the Host header).
 */
export function wrkScript(dir: string, requests: WrkRequest[]): string {
  const lua = (s: string) => JSON.stringify(s);
  const file = join(dir, `wrk-${randomBytes(4).toString('hex')}.lua`);
  writeFileSync(
    file,
    `local requests = {}
init = function()
${requests
  .map((r) => {
    const headers = [
      r.token ? `["authorization"] = ${lua(`Bearer ${r.token}`)}` : '',
      r.body ? `["content-type"] = "application/json"` : '',
    ]
      .filter(Boolean)
      .join(', ');
    return `table.insert(requests, wrk.format(${lua(r.method)}, ${lua(r.path)}, { ${headers} }${r.body ? `, ${lua(r.body)}` : ''}))`;
  })
  .join('\n')}
end
local i = 0
request = function()
  i = i + 1
  return requests[(i % #requests) + 1]
end
`,
  );
  return file;
}

export interface Rate {
  rps: number;
  total: number;
}

/** Seconds of untimed load on a server before its first measured run (BENCH_WARMUP_S, 0 for none). */
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 3);

/**
 * Untimed load, so a measured run sees a server in its steady state: modules loaded on first use,
 * the JIT's compiled code, PostgreSQL's statements prepared and its read connections open. Without
 * it the first run of each engine also measured that start-up, which costs PostgreSQL more.
 */
export async function warmUp(bases: string[], script: string, connections: number): Promise<void> {
  if (WARMUP_S > 0) await wrk(bases, script, connections, WARMUP_S);
}

/** One wrk per base URL at once (`connections` each), for DURATION_S; the rates added. */
export async function wrk(bases: string[], script: string, connections: number, seconds = DURATION_S): Promise<Rate> {
  const runs = bases.map(
    (base) =>
      new Promise<Rate>((resolve, reject) => {
        const child = spawn('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', script, base], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        let err = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (err += d.toString()));
        child.once('exit', (code) => {
          const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
          const total = Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN);
          if (code !== 0 || !Number.isFinite(rps)) return reject(new Error(`wrk failed (${code}): ${err}${out}`));
          if (/Non-2xx or 3xx responses/.test(out) || /Socket errors/.test(out))
            return reject(new Error(`${base}: wrk saw errors\n${out}`));
          resolve({ rps, total });
        });
      }),
  );
  const rates = await Promise.all(runs);
  return { rps: rates.reduce((s, r) => s + r.rps, 0), total: rates.reduce((s, r) => s + r.total, 0) };
}
