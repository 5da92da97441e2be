// Issue 4 bench: the warehouse under load, against a registry server in its own process.
//   - reservations/s: POST …/warehouse/inventory/reservations with 32 concurrent connections spread
//     over the warehouse's 100 credits, beside the floor of a trivial unauthenticated route on the
//     same server; and the contended worst case, every request on ONE credit (each reserve sums the
//     holds of that credit, so it slows down as thousands of live reservations pile up on it);
//   - finish-to-processed latency: reserve, finish, then poll GET reservation until isComplete,
//     8 flows at once; p50/p99 from the finish request being sent.
// The registry is built here (a warehouse with 100 credits of 10,000 t): the warehouse figures do
// not depend on how many projects exist, and this keeps the bench independent of the demo seed.
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { openRegistry } from '../electron/core/registry/open';
import * as ops from '../electron/core/registry/operations';
import { createMarketParties } from './support/market-parties';
import { issueAccessToken } from '../electron/core/registry/auth/tokens';
import type { BenchFigure, BenchSuite } from './types';
import { startScript } from './support/processes';
import { stockWarehouse } from '../test/support/stocked-warehouse';
import { percentile } from './support/percentile';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const LATENCY_FLOWS = 8;
const LATENCY_SAMPLES = 400;

interface World {
  dir: string;
  orgA: string;
  orgB: string;
  creditId: string;
  creditIds: string[];
  token: string;
}

export function buildRegistry(): World {
  const dir = mkdtempSync(join(tmpdir(), 'bench-warehouse-'));
  const r = openRegistry({ dataDir: dir });
  try {
    const { buyerId: orgB, verificationBodyId: validator } = createMarketParties(r);
    const orgA = ops.createOrganization(r, { fullName: 'Seller', countryCode: 'KE', verified: true }).id;
    const creditIds: string[] = [];
    for (let p = 0; p < 25; p++) {
      const stock = { organizationId: orgA, verificationBodyId: validator, projectName: `Bench Forest ${p}` };
      creditIds.push(...stockWarehouse(r, { ...stock, vintages: ['2020', '2021', '2022', '2023'], issue: 10_000, deposit: 10_000 }));
    }
    const creditId = creditIds[0]!;
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const app = ops.createApp(r, { name: 'Bench marketplace', publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() });
    const permissions = { organization_warehouse: 'WRITE' };
    const installation = ops.installApp(r, { appId: app.id, organizationId: orgA, permissions });
    const { token } = issueAccessToken(r, { appId: app.id, installationId: installation.id, permissions });
    return { dir, orgA, orgB, creditId, creditIds, token };
  } finally {
    r.close();
  }
}

interface LoadOptions {
  url: string;
  method?: string;
  body?: string;
  headers?: Record<string, string>;
  /** Bodies each connection cycles through (autocannon's `requests`; bench/autocannon.d.ts omits it). */
  requests?: { body: string }[];
}

async function load(options: LoadOptions) {
  const result = await autocannon({ connections: 32, duration: DURATION_S, ...options });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${options.url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, total: result.requests.total, p99: result.latency.p99 };
}

export async function finishToProcessed(url: string, w: Pick<World, 'orgA' | 'orgB' | 'creditId' | 'token'>): Promise<number[]> {
  const headers = { authorization: `Bearer ${w.token}`, 'content-type': 'application/json' };
  const base = `${url}/organizations/${w.orgA}/warehouse/inventory/reservations`;
  const samples: number[] = [];
  async function flow() {
    while (samples.length < LATENCY_SAMPLES) {
      const reserved = await fetch(base, { method: 'POST', headers, body: JSON.stringify({ creditId: w.creditId, amount: 0.5 }) });
      if (reserved.status !== 200) throw new Error(`reserve answered ${reserved.status}`);
      const { id } = (await reserved.json()) as { id: string };
      const started = performance.now();
      const finished = await fetch(`${base}/${id}/transfer_retire`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ receiverId: w.orgB, retirementData: { reason: 'Bench', beneficiaryName: 'Bench beneficiary' } }),
      });
      if (finished.status !== 200) throw new Error(`finish answered ${finished.status}`);
      await finished.arrayBuffer();
      for (;;) {
        const res = await fetch(`${base}/${id}`, { headers });
        const reservation = (await res.json()) as { isComplete: boolean; state: string };
        if (reservation.isComplete) {
          if (reservation.state !== 'processed') throw new Error(`reservation ${id} ended ${reservation.state}`);
          break;
        }
      }
      samples.push(performance.now() - started);
    }
  }
  await Promise.all(Array.from({ length: LATENCY_FLOWS }, flow));
  return samples.sort((a, b) => a - b);
}

export const suite: BenchSuite = {
  name: 'warehouse: reservations and finish-to-processed',
  async run() {
    const w = buildRegistry();
    const server = await startScript<{ url: string }>('test/support/warehouse-server.ts', [w.dir]);
    try {
      const { url } = server.info;
      const reserve = {
        url: `${url}/organizations/${w.orgA}/warehouse/inventory/reservations`,
        method: 'POST',
        headers: { authorization: `Bearer ${w.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ creditId: w.creditId, amount: 0.001 }),
      };
      const floor = await load({ url: `${url}/__floor__/ping` });
      const spread = await load({
        ...reserve,
        requests: w.creditIds.map((creditId) => ({ body: JSON.stringify({ creditId, amount: 0.001 }) })),
      });
      const latencies = await finishToProcessed(url, w);
      const oneCredit = await load(reserve);
      const p50 = percentile(latencies, 50);
      const p99 = percentile(latencies, 99);
      const s = 'warehouse';
      return [
        {
          suite: s,
          name: `reservations, 100 credits (32 conn, ${spread.total} made)`,
          value: spread.rps,
          unit: 'req/s',
          floor: floor.rps,
          ratio: spread.rps / floor.rps,
          target: '>= 1000 req/s',
          pass: spread.rps >= 1000,
        },
        { suite: s, name: 'reservation latency p99 under that load', value: spread.p99, unit: 'ms', floor: floor.p99 },
        {
          suite: s,
          name: `reservations, all on one credit (${oneCredit.total} made)`,
          value: oneCredit.rps,
          unit: 'req/s',
          floor: floor.rps,
          ratio: oneCredit.rps / floor.rps,
        },
        { suite: s, name: `finish-to-processed p50 (${LATENCY_FLOWS} flows)`, value: p50, unit: 'ms' },
        {
          suite: s,
          name: `finish-to-processed p99 (${latencies.length} samples)`,
          value: p99,
          unit: 'ms',
          target: '< 250 ms',
          pass: p99 < 250,
        },
      ] satisfies BenchFigure[];
    } finally {
      await server.stop();
      rmSync(w.dir, { recursive: true, force: true });
    }
  },
};
