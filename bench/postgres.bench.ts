// Issue 17 bench: the shared registry on PostgreSQL with one and with two server processes, beside
// the same registry on SQLite, in one run. Needs a PostgreSQL it may create a database on:
// BENCH_POSTGRES_URL (or REGISTRY_TEST_POSTGRES_URL; `scripts/postgres.sh start` prints one); without
// one the suite says so in one line and measures nothing.
//   - reads/s: GET an organization's warehouse inventory (balances and holds read from the database
//     on every request), installation tokens of 8 organizations in turn;
//   - reservations/s: POST a reservation of 0.001 t, each request for one of 8 organizations (one
//     credit of its 4 in turn), and all on one organization;
//   - finish→processed: reserve on one process, finish on the other, poll until processed;
//   - each beside its floor of the same run (GET /__floor__/ping on the same processes).
// Load comes from wrk (C, one thread per process served), which leaves the cores to the servers and
// PostgreSQL; with two processes, one wrk per process at once, the rates added.
// Then the two ways to keep reservations exact across processes, straight against the database (no
// HTTP; bench/support/pg-reserver.ts): READ COMMITTED behind the credit's balance row lock (SELECT …
// FOR UPDATE), as the registry reserves, against SERIALIZABLE with bounded retry, as it reserved
// before, each with 1 and 2 processes, over the 8 organizations' credits and over one organization's
// 4, alternated, the better of two runs kept, every run starting without live holds.
import { spawn, spawnSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { issueAccessToken } from '../electron/core/registry/auth/tokens';
import { PostgresDatabase } from '../electron/core/platform/db/postgres';
import type { RegistryContext } from '../electron/core/registry/context';
import { openPostgresRegistry, openRegistry } from '../electron/core/registry/open';
import * as ops from '../electron/core/registry/operations';
import { createMarketParties } from './support/market-parties';
import { startScript } from './support/processes';
import { backendPids, cpuMs } from './support/cpu';
import type { BenchFigure, BenchSuite } from './types';
import { stockWarehouse } from '../test/support/stocked-warehouse';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const DIRECT_MS = Number(process.env.BENCH_DIRECT_MS ?? 5000);
const SELLERS = 8;
const LATENCY_SAMPLES = 400;
const LATENCY_FLOWS = 8;
const root = join(import.meta.dirname, '..');

interface Seller {
  id: string;
  token: string;
  credits: string[];
}
interface World {
  sellers: Seller[];
  buyer: string;
  appId: string;
}

/** 8 selling organizations, each with 4 credits of 10,000 t in its warehouse and its app installation. */
function buildWorld(r: RegistryContext): World {
  const { buyerId: buyer, verificationBodyId: validator } = createMarketParties(r);
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const appId = ops.createApp(r, {
    name: 'Bench marketplace',
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  }).id;
  const permissions = { organization_warehouse: 'WRITE' };
  const sellers: Seller[] = [];
  for (let s = 0; s < SELLERS; s++) {
    const id = ops.createOrganization(r, { fullName: `Seller ${s}`, countryCode: 'KE', verified: true }).id;
    const credits: string[] = [];
    for (let p = 0; p < 2; p++) {
      const stock = { organizationId: id, verificationBodyId: validator, projectName: `Bench Forest ${s}.${p}` };
      credits.push(...stockWarehouse(r, { ...stock, vintages: ['2022', '2023'], issue: 10_000, deposit: 10_000 }));
    }
    const installation = ops.installApp(r, { appId, organizationId: id, permissions });
    const { token } = issueAccessToken(r, { appId, installationId: installation.id, permissions });
    sellers.push({ id, token, credits });
  }
  return { sellers, buyer, appId };
}

interface WrkRequest {
  method: 'GET' | 'POST';
  path: string;
  token?: string;
  body?: string;
}

/**
 * A wrk script that sends the requests in turn (each thread cycles through all of them; built in
 * `init`, once wrk knows the Host header).
 */
function wrkScript(dir: string, requests: WrkRequest[]): string {
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

interface Rate {
  rps: number;
  total: number;
}

/** One wrk per base URL at once (`connections` each), for DURATION_S; the rates added. */
async function wrk(bases: string[], script: string, connections: number): Promise<Rate> {
  const runs = bases.map(
    (base) =>
      new Promise<Rate>((resolve, reject) => {
        const child = spawn('wrk', ['-t1', `-c${connections}`, `-d${DURATION_S}s`, '--timeout', '10s', '-s', script, base], {
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

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Reserve and finish on one process, poll on the next: the queue must move whichever process took it. */
async function finishToProcessed(bases: string[], w: World): Promise<number[]> {
  const samples: number[] = [];
  let n = 0;
  async function flow(f: number) {
    const seller = w.sellers[f % w.sellers.length]!;
    const headers = { authorization: `Bearer ${seller.token}`, 'content-type': 'application/json' };
    const path = `/organizations/${seller.id}/warehouse/inventory/reservations`;
    while (samples.length < LATENCY_SAMPLES) {
      const on = bases[n++ % bases.length]!;
      const poll = bases[n % bases.length]!;
      const reserved = await fetch(`${on}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ creditId: seller.credits[0], amount: 0.5 }),
      });
      if (reserved.status !== 200) throw new Error(`reserve answered ${reserved.status}: ${await reserved.text()}`);
      const { id } = (await reserved.json()) as { id: string };
      const started = performance.now();
      const finished = await fetch(`${on}${path}/${id}/transfer_retire`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ receiverId: w.buyer, retirementData: { reason: 'Bench', beneficiaryName: 'Bench beneficiary' } }),
      });
      if (finished.status !== 200) throw new Error(`finish answered ${finished.status}: ${await finished.text()}`);
      await finished.arrayBuffer();
      for (;;) {
        const res = await fetch(`${poll}${path}/${id}`, { headers });
        const reservation = (await res.json()) as { isComplete: boolean; state: string };
        if (reservation.isComplete) {
          if (reservation.state !== 'processed') throw new Error(`reservation ${id} ended ${reservation.state}`);
          break;
        }
      }
      samples.push(performance.now() - started);
    }
  }
  await Promise.all(Array.from({ length: LATENCY_FLOWS }, (_, f) => flow(f)));
  return samples.sort((a, b) => a - b);
}

/**
 * `processes` direct reservers started together, each over `sellers`' credits in turn (from its own
 * place in that list); answers reservations/s and how many transactions ran again.
 */
async function direct(
  url: string,
  mode: 'serializable' | 'rows',
  processes: number,
  appId: string,
  sellers: Seller[],
): Promise<{ rps: number; retries: number; gaveUp: number }> {
  const pairs = sellers.flatMap((s) => s.credits.map((c) => `${s.id}:${c}`));
  const children = await Promise.all(
    Array.from({ length: processes }, async (_, i) => {
      const args = [url, mode, appId, pairs.join(','), String(DIRECT_MS), String(Math.floor((i * pairs.length) / processes))];
      const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench/support/pg-reserver.ts'), ...args], {
        cwd: root,
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      const lines = createInterface({ input: child.stdout });
      const next = () => new Promise<string>((resolve) => lines.once('line', resolve));
      await next(); // ready
      return { child, next };
    }),
  );
  const results = children.map((c) => c.next());
  for (const c of children) c.child.stdin.write('go\n');
  const answers = (await Promise.all(results)).map((line) => JSON.parse(line) as { made: number; retries: number; gaveUp: number });
  return {
    rps: answers.reduce((s, a) => s + a.made, 0) / (DIRECT_MS / 1000),
    retries: answers.reduce((s, a) => s + a.retries, 0),
    gaveUp: answers.reduce((s, a) => s + a.gaveUp, 0),
  };
}

/**
 * Cancels every pending reservation and vacuums the table, so that each reservation run starts with
 * no live holds (each reservation sums the holds of its credit: a run after another would be slower).
 */
function releaseHolds(url: string): void {
  const db = new PostgresDatabase<unknown>(url);
  try {
    db.exec(`UPDATE reservations SET state = 'cancelled' WHERE state = 'pending'`);
    db.exec('VACUUM ANALYZE reservations');
  } finally {
    db.close();
  }
}

type Direct = Awaited<ReturnType<typeof direct>>;
type Locking = Record<'serializable1' | 'serializable2' | 'rows1' | 'rows2', Direct>;

/** Both ways, 1 then 2 processes, alternated and run twice; the better of the two runs of each kept. */
async function compareLocking(url: string, appId: string, sellers: Seller[]): Promise<Locking> {
  const best: Record<string, Direct> = {};
  for (let round = 0; round < 2; round++) {
    for (const processes of [1, 2]) {
      for (const mode of round === 0 ? (['serializable', 'rows'] as const) : (['rows', 'serializable'] as const)) {
        releaseHolds(url);
        const got = await direct(url, mode, processes, appId, sellers);
        const key = `${mode}${processes}`;
        if (!best[key] || got.rps > best[key].rps) best[key] = got;
      }
    }
  }
  return best as Locking;
}

function lockingFigures(what: string, r: Locking, load: number): BenchFigure[] {
  const figure = (mode: 'serializable' | 'rows', n: 1 | 2): BenchFigure => {
    const got = r[`${mode}${n}`];
    const other = r[`${mode === 'rows' ? 'serializable' : 'rows'}${n}`];
    const label = `${mode === 'rows' ? 'row locks' : 'serializable'}, ${n} process${n === 2 ? 'es' : ''}`;
    return {
      suite: 'postgres',
      name: `direct reservations, ${what}, ${label} (${got.retries} re-run${got.gaveUp > 0 ? `, ${got.gaveUp} failed` : ''}${n === 1 && mode === 'serializable' ? `; load ${load.toFixed(1)}` : ''})`,
      value: got.rps,
      unit: 'res/s',
      ...(mode === 'rows' ? { floor: other.rps, ratio: got.rps / other.rps, target: 'ratio: x serializable' } : {}),
    };
  };
  return [figure('serializable', 1), figure('rows', 1), figure('serializable', 2), figure('rows', 2)];
}

interface CpuPerRequest {
  serverMs: number;
  backendMs: number;
}

/** CPU milliseconds per request of one process of each engine: server process + PostgreSQL backends. */
function cpuFigures(what: string, pg: CpuPerRequest, lite: CpuPerRequest): BenchFigure[] {
  const split = (c: CpuPerRequest) => `server ${c.serverMs.toFixed(2)} + database ${c.backendMs.toFixed(2)}`;
  return [
    { suite: 'postgres', name: `CPU per ${what}, PostgreSQL, 1 process (${split(pg)})`, value: pg.serverMs + pg.backendMs, unit: 'ms/req' },
    { suite: 'postgres', name: `CPU per ${what}, SQLite, 1 process`, value: lite.serverMs, unit: 'ms/req' },
  ];
}

function createDatabase(url: string): { url: string; name: string; drop(): void } {
  const name = `registry_bench_${process.pid}`;
  const admin = new PostgresDatabase<unknown>(url);
  try {
    admin.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    admin.exec(`CREATE DATABASE ${name}`);
  } finally {
    admin.close();
  }
  return {
    name,
    url: `${url}${url.includes('?') ? '&' : '?'}dbname=${name}`,
    drop() {
      const again = new PostgresDatabase<unknown>(url);
      try {
        again.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        again.close();
      }
    },
  };
}

const SERVER = 'test/support/warehouse-server.ts';

export const suite: BenchSuite = {
  name: 'postgres: one and two server processes, beside SQLite',
  async run() {
    const serverUrl = process.env.BENCH_POSTGRES_URL ?? process.env.REGISTRY_TEST_POSTGRES_URL;
    if (!serverUrl) {
      console.log('postgres: skipped: no PostgreSQL URL (set BENCH_POSTGRES_URL; scripts/postgres.sh start prints one)');
      return [];
    }
    if (spawnSync('wrk', ['--version']).error) {
      console.log('postgres: skipped: needs wrk (apt-get install wrk)');
      return [];
    }
    const dir = mkdtempSync(join(tmpdir(), 'bench-postgres-'));
    const database = createDatabase(serverUrl);
    const stops: (() => Promise<void>)[] = [];
    try {
      // the same world on both engines
      const pg = openPostgresRegistry({ databaseUrl: database.url });
      const w = buildWorld(pg);
      pg.close();
      if (process.env.BENCH_POSTGRES_PART === 'locking') {
        const load = loadavg()[0]!;
        return [
          ...lockingFigures('8 organizations', await compareLocking(database.url, w.appId, w.sellers), load),
          ...lockingFigures('one organization', await compareLocking(database.url, w.appId, [w.sellers[1]!]), load),
        ];
      }
      const sqliteDir = join(dir, 'sqlite');
      const lite = openRegistry({ dataDir: sqliteDir });
      const wl = buildWorld(lite);
      lite.close();

      const pids: number[] = [];
      const start = async (target: string) => {
        const server = await startScript<{ url: string }>(SERVER, [target]);
        stops.push(server.stop);
        pids.push(server.child.pid!);
        return server.info.url;
      };
      const pgBases = [await start(database.url), await start(database.url)];
      const sqliteBase = await start(sqliteDir);
      // CPU per request: of the server process, and (PostgreSQL) of every backend on the database,
      // those the run opened included (a process opens its read connections as its reads need them)
      const measured = async (bases: string[], script: string, connections: number, server: number) => {
        const backends = server === 2 ? [] : backendPids(serverUrl, database.name);
        const [serverBefore, backendsBefore] = [cpuMs([pids[server]!]), cpuMs(backends)];
        const rate = await wrk(bases, script, connections);
        const perRequest = (ms: number) => ms / rate.total;
        const opened = server === 2 ? [] : backendPids(serverUrl, database.name).filter((pid) => !backends.includes(pid));
        return {
          ...rate,
          serverMs: perRequest(cpuMs([pids[server]!]) - serverBefore),
          backendMs: perRequest(cpuMs(backends) + cpuMs(opened) - backendsBefore),
        };
      };

      const floorScript = wrkScript(dir, [{ method: 'GET', path: '/__floor__/ping' }]);
      /** The reads ratio and CPU per read alone (BENCH_POSTGRES_PART=reads), PostgreSQL and SQLite alternated twice. */
      const readsOnly = async (pgOne: string[], lite: string): Promise<BenchFigure[]> => {
        const figures: BenchFigure[] = [];
        for (let round = 1; round <= 2; round++) {
          const before = loadavg()[0]!;
          const pgReads = await measured(pgOne, reads(w), 32, 0);
          const liteReads = await measured([lite], reads(wl), 32, 2);
          const ratio = pgReads.rps / liteReads.rps;
          figures.push(
            {
              suite: 'postgres',
              name: `reads, PostgreSQL against SQLite, 1 process each (run ${round}; load ${before.toFixed(1)}→${loadavg()[0]!.toFixed(1)})`,
              value: pgReads.rps,
              unit: 'req/s',
              floor: liteReads.rps,
              ratio,
              target: '>= 0.8x SQLite',
              pass: ratio >= 0.8,
            },
            ...cpuFigures(`read (run ${round})`, pgReads, liteReads),
          );
        }
        return figures;
      };
      const reads = (x: World) =>
        wrkScript(
          dir,
          x.sellers.map((s) => ({ method: 'GET', path: `/organizations/${s.id}/warehouse/inventory`, token: s.token })),
        );
      const reserveRequests = (sellers: Seller[]) =>
        sellers.flatMap((s) =>
          s.credits.map((creditId) => ({
            method: 'POST' as const,
            path: `/organizations/${s.id}/warehouse/inventory/reservations`,
            token: s.token,
            body: JSON.stringify({ creditId, amount: 0.001 }),
          })),
        );
      // interleave organizations so that consecutive requests are for different ones
      const spread = (x: World) => {
        const all = reserveRequests(x.sellers);
        return wrkScript(
          dir,
          [0, 1, 2, 3].flatMap((c) => all.filter((_, i) => i % 4 === c)),
        );
      };
      const oneOrg = (x: World) => wrkScript(dir, reserveRequests([x.sellers[0]!]));

      const one = [pgBases[0]!];
      if (process.env.BENCH_POSTGRES_PART === 'reads') return await readsOnly(one, sqliteBase);
      const loadBefore = loadavg()[0]!;
      const floor1 = await wrk(one, floorScript, 32);
      const floor2 = await wrk(pgBases, floorScript, 16);
      const floorLite = await wrk([sqliteBase], floorScript, 32);
      const reads1 = await measured(one, reads(w), 32, 0);
      const reads2 = await wrk(pgBases, reads(w), 16);
      const readsLite = await measured([sqliteBase], reads(wl), 32, 2);
      const fresh = () => releaseHolds(database.url);
      const res1 = await measured(one, spread(w), 32, 0);
      fresh();
      const res2 = await wrk(pgBases, spread(w), 16);
      const resLite = await measured([sqliteBase], spread(wl), 32, 2);
      fresh();
      const hot1 = await wrk(one, oneOrg(w), 32);
      fresh();
      const hot2 = await wrk(pgBases, oneOrg(w), 16);
      fresh();
      const latencies = await finishToProcessed(pgBases, w);
      const loadAfter = loadavg()[0]!;
      for (const stop of stops.splice(0)) await stop();

      const spreadLocking = await compareLocking(database.url, w.appId, w.sellers);
      const hotLocking = await compareLocking(database.url, w.appId, [w.sellers[1]!]);
      const loadEnd = loadavg()[0]!;

      const s = 'postgres';
      const load = `load ${loadBefore.toFixed(1)}→${loadAfter.toFixed(1)}`;
      const p99 = percentile(latencies, 99);
      return [
        {
          suite: s,
          name: `reads, 1 process (warehouse inventory, 32 conn; ${load})`,
          value: reads1.rps,
          unit: 'req/s',
          floor: floor1.rps,
          ratio: reads1.rps / floor1.rps,
        },
        {
          suite: s,
          name: 'reads, 2 processes (16 conn each)',
          value: reads2.rps,
          unit: 'req/s',
          floor: floor2.rps,
          ratio: reads2.rps / reads1.rps,
          target: 'ratio: x 1 process',
        },
        {
          suite: s,
          name: 'reads, SQLite, 1 process',
          value: readsLite.rps,
          unit: 'req/s',
          floor: floorLite.rps,
          ratio: readsLite.rps / floorLite.rps,
        },
        {
          suite: s,
          name: 'reads, PostgreSQL against SQLite, 1 process each',
          value: reads1.rps,
          unit: 'req/s',
          floor: readsLite.rps,
          ratio: reads1.rps / readsLite.rps,
          target: '>= 0.8x SQLite',
          pass: reads1.rps >= 0.8 * readsLite.rps,
        },
        ...cpuFigures('read', reads1, readsLite),
        {
          suite: s,
          name: `reservations, 8 organizations, 1 process (${res1.total} made)`,
          value: res1.rps,
          unit: 'req/s',
          floor: floor1.rps,
          ratio: res1.rps / floor1.rps,
        },
        {
          suite: s,
          name: `reservations, 8 organizations, 2 processes (${res2.total} made)`,
          value: res2.rps,
          unit: 'req/s',
          floor: floor2.rps,
          ratio: res2.rps / res1.rps,
          target: '>= 1.5x 1 process',
          pass: res2.rps >= 1.5 * res1.rps,
        },
        {
          suite: s,
          name: `reservations, SQLite, 1 process (${resLite.total} made)`,
          value: resLite.rps,
          unit: 'req/s',
          floor: floorLite.rps,
          ratio: resLite.rps / floorLite.rps,
        },
        {
          suite: s,
          name: 'reservations, one organization, 1 process',
          value: hot1.rps,
          unit: 'req/s',
          floor: floor1.rps,
          ratio: hot1.rps / floor1.rps,
        },
        {
          suite: s,
          name: 'reservations, one organization, 2 processes',
          value: hot2.rps,
          unit: 'req/s',
          floor: floor2.rps,
          ratio: hot2.rps / hot1.rps,
          target: 'ratio: x 1 process',
        },
        ...cpuFigures('reservation', res1, resLite),
        { suite: s, name: `finish→processed p50 (2 processes, ${LATENCY_FLOWS} flows)`, value: percentile(latencies, 50), unit: 'ms' },
        {
          suite: s,
          name: `finish→processed p99 (${latencies.length} samples)`,
          value: p99,
          unit: 'ms',
          target: '< 250 ms',
          pass: p99 < 250,
        },
        ...lockingFigures('8 organizations', spreadLocking, loadEnd),
        ...lockingFigures('one organization', hotLocking, loadEnd),
      ] satisfies BenchFigure[];
    } finally {
      for (const stop of stops) await stop();
      database.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
