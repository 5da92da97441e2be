// Issue 29 bench: what the transparency log costs. (1) Ledger writes per second (one transaction:
// a transfer movement and its audit entry, as an operator write makes) on a registry with the log
// against the same code on a schema without it (migration 13): target at most 10% slower.
// (2) Proof sizes at a large log. (3) Inclusion proofs served per second over HTTP. (4) A client's
// verification per re-sync (checkpoint signature, consistency with the kept one, inclusion of 50
// records), as the desk would run it: target < 50 ms. (5) The desk's own check per re-sync, and a
// re-sync's wall time with and without it (desk-verification.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../electron/core/platform/clock';
import { openSqlite } from '../electron/core/platform/db/open';
import { appendAudit } from '../electron/core/registry/audit';
import type { RegistryContext } from '../electron/core/registry/context';
import { startRegistryServer } from '../electron/core/registry/http/server';
import { appendMovement } from '../electron/core/registry/ledger';
import { registryMigrations } from '../electron/core/registry/migrations';
import * as ops from '../electron/core/registry/operations';
import type { RegistryTables } from '../electron/core/registry/schema';
import { verifyEd25519 } from '../electron/core/registry/transparency/ed25519';
import { signCheckpoint } from '../electron/core/registry/transparency/checkpoints';
import { nodeSha256 } from '../electron/core/registry/transparency/tree';
import { fetchCheckpoint, fetchLeaves, fetchVerifierKey, verifyExtends, verifyIncluded, type Get } from '../shared/transparency/verifier';
import { stockWarehouse } from '../test/support/stocked-warehouse';
import type { BenchFigure, BenchSuite } from './types';
import { deskVerificationFigures } from './desk-verification';

const WRITES = Number(process.env.BENCH_TLOG_WRITES ?? 3000);
const LOG_SIZE = Number(process.env.BENCH_TLOG_SIZE ?? 20_000);
const SUITE = 'transparency';

function registryAt(migrations: number): { ctx: RegistryContext; credit: string; from: string; to: string; close(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'bench-tlog-'));
  const { db } = openSqlite<RegistryTables>(join(dir, 'registry.sqlite'), { migrations: registryMigrations.slice(0, migrations) });
  const ctx: RegistryContext = {
    db,
    clock: new ManualClock(Date.parse('2025-01-01T00:00:00Z')),
    newId: () => crypto.randomUUID(),
    urls: { apiBaseUrl: 'http://127.0.0.1', publicBaseUrl: 'https://registry.example.org' },
  };
  const vvb = ops.createOrganization(ctx, { fullName: 'VVB', type: 'validationVerificationBody', countryCode: 'GB', verified: true });
  const owner = ops.createOrganization(ctx, { fullName: 'Owner', countryCode: 'KE', verified: true });
  const [credit] = stockWarehouse(ctx, {
    organizationId: owner.id,
    verificationBodyId: vvb.id,
    projectName: 'P',
    vintages: ['2021'],
    issue: 1_000_000,
    deposit: 1,
  });
  const accounts = db.raw.prepare(`SELECT id, kind FROM accounts WHERE organization_id = ? ORDER BY kind`).all(owner.id) as {
    id: string;
  }[];
  return {
    ctx,
    credit: credit!,
    from: accounts[0]!.id,
    to: accounts[1]!.id,
    close: () => (db.close(), rmSync(dir, { recursive: true, force: true })),
  };
}

function writesPerSecond(migrations: number): number {
  const r = registryAt(migrations);
  try {
    const write = (i: number) =>
      r.ctx.db.transaction(() => {
        const [from, to] = i % 2 === 0 ? [r.from, r.to] : [r.to, r.from];
        appendMovement(r.ctx, { creditId: r.credit, kind: i % 2 === 0 ? 'deposit' : 'withdraw', from, to, amount: 1 });
        appendAudit(r.ctx, {
          operatorId: null,
          actor: 'bench',
          action: 'warehouse.deposit',
          targetIds: [r.credit],
          outcome: 'succeeded',
          detail: { i },
        });
      });
    for (let i = 0; i < 200; i++) write(i);
    const started = performance.now();
    for (let i = 0; i < WRITES; i++) write(i);
    return WRITES / ((performance.now() - started) / 1000);
  } finally {
    r.close();
  }
}

async function proofs(): Promise<BenchFigure[]> {
  const r = registryAt(registryMigrations.length);
  r.ctx.db.transaction(() => {
    for (let i = 0; i < LOG_SIZE; i++)
      appendAudit(r.ctx, { operatorId: null, actor: 'bench', action: 'x', targetIds: [], outcome: 'succeeded', detail: { i } });
  });
  const kept = signCheckpoint(r.ctx);
  const server = await startRegistryServer({ registry: r.ctx, background: false });
  const get: Get = async (path) => {
    const res = await fetch(`${server.url}${path}`);
    return { status: res.status, text: await res.text() };
  };
  try {
    const size = kept.size;
    const inclusionBytes = (await get(`/transparency/v1/proof/inclusion?index=${Math.floor(size / 3)}&size=${size}`)).text.length;
    const consistencyBytes = (await get(`/transparency/v1/proof/consistency?from=${size - 1001}&to=${size}`)).text.length;
    let served = 0;
    const started = performance.now();
    while (performance.now() - started < 3000) {
      await get(`/transparency/v1/proof/inclusion?index=${(served * 7919) % size}&size=${size}`);
      served++;
    }
    const rate = served / ((performance.now() - started) / 1000);
    // a re-sync's verification: 50 new records written, a new checkpoint, then the client's checks
    r.ctx.db.transaction(() => {
      for (let i = 0; i < 50; i++)
        appendAudit(r.ctx, { operatorId: null, actor: 'bench', action: 'y', targetIds: [], outcome: 'succeeded', detail: { i } });
    });
    const key = await fetchVerifierKey(get);
    const first = await fetchCheckpoint(get, key, verifyEd25519);
    (r.ctx.clock as ManualClock).advance(10_000);
    const times: number[] = [];
    for (let round = 0; round < 10; round++) {
      const t0 = performance.now();
      const latest = await fetchCheckpoint(get, key, verifyEd25519);
      await verifyExtends(get, first, latest, nodeSha256);
      const leaves: { index: number; data: string }[] = [];
      await fetchLeaves(get, latest.size - 50, latest.size, (l) => leaves.push(l));
      for (const leaf of leaves) await verifyIncluded(get, leaf.index, Buffer.from(leaf.data, 'base64'), latest, nodeSha256);
      times.push(performance.now() - t0);
    }
    const resync = times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
    return [
      { suite: SUITE, name: `inclusion proof size at ${size} leaves`, value: inclusionBytes, unit: 'bytes' },
      { suite: SUITE, name: `consistency proof size, 1001 leaves apart`, value: consistencyBytes, unit: 'bytes' },
      { suite: SUITE, name: 'inclusion proofs served (one client)', value: rate, unit: 'req/s' },
      {
        suite: SUITE,
        name: 'client checks per re-sync (50 records), median',
        value: resync,
        unit: 'ms',
        target: '< 50 ms',
        pass: resync < 50,
      },
    ];
  } finally {
    await server.close();
    r.close();
  }
}

export const suite: BenchSuite = {
  name: 'Transparency log (issue 29)',
  async run() {
    const without = writesPerSecond(13);
    const withLog = writesPerSecond(registryMigrations.length);
    const ratio = withLog / without;
    return [
      {
        suite: SUITE,
        name: 'ledger writes (movement + audit entry) with the log',
        value: withLog,
        unit: 'tx/s',
        floor: without,
        ratio,
        target: '>= 90% of without',
        pass: ratio >= 0.9,
      },
      ...(await proofs()),
      ...(await deskVerificationFigures()),
    ];
  },
};
