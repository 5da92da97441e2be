// Issue 13 bench: the operator interface. (1) An issuance and a transfer, each an audited, idempotent
// operator write over HTTP, one after the other: the round trip's p99 on a --scale 100 registry.
// (2) The audit search (one operator, one target, a date range) over 1,000,000 audit entries: p95.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { startRegistryServer } from '../electron/core/registry/http/server';
import { appendAudit } from '../electron/core/registry/audit';
import { searchAudit } from '../electron/core/registry/audit-search';
import { openRegistry } from '../electron/core/registry/open';
import { createOperator } from '../electron/core/registry/operations/operators';
import type { BenchFigure, BenchSuite } from './types';
import { scaledRegistryCopy } from './support/scaled-registry';
import { percentile } from './support/percentile';

const SCALE = Number(process.env.BENCH_OPERATOR_SCALE ?? 100);
const ROUND_TRIPS = 300;
const AUDIT_ENTRIES = Number(process.env.BENCH_AUDIT_ENTRIES ?? 1_000_000);
const SEARCHES = 400;

async function roundTrips(): Promise<{ p50: number; p99: number }> {
  const data = await scaledRegistryCopy(SCALE);
  const registry = openRegistry({ dataDir: data.dir });
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const { operator } = createOperator(registry, {
    name: 'Bench manager',
    role: 'manager',
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  });
  const project = registry.db.raw
    // issuing needs a verified organization (a 409 otherwise)
    .prepare(
      "SELECT p.id, p.organization_id FROM projects p JOIN organizations o ON o.id = p.organization_id WHERE p.status IN ('validated', 'registered') AND o.is_verified = 1 ORDER BY p.id LIMIT 1",
    )
    .get() as { id: string; organization_id: string };
  const validator = registry.db.raw.prepare("SELECT id FROM organizations WHERE type = 'validationVerificationBody' LIMIT 1").get() as {
    id: string;
  };
  const server = await startRegistryServer({ registry });
  try {
    const now = Math.floor(Date.now() / 1000);
    const jwt = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer(operator.id)
      .setIssuedAt(now - 60)
      .setExpirationTime(now + 540)
      .sign(privateKey);
    const tokenRes = await fetch(`${server.url}/operator/v1/tokens`, { method: 'POST', headers: { authorization: `Bearer ${jwt}` } });
    const { token } = (await tokenRes.json()) as { token: string };
    const post = async (path: string, body: unknown, key: string) => {
      const res = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status !== 201) throw new Error(`${path}: ${res.status} ${text}`);
      return JSON.parse(text) as { creditId?: string };
    };
    const times: number[] = [];
    for (let i = 0; i < ROUND_TRIPS + 20; i++) {
      const started = performance.now();
      const issued = await post(
        '/operator/v1/issuances',
        {
          projectId: project.id,
          vintage: '2031',
          amount: 2,
          bufferBasisPoints: 0,
          monitoringPeriodStart: '2031-01-01',
          monitoringPeriodEnd: '2031-12-31',
          verificationBodyId: validator.id,
        },
        `bench-issue-${i}`,
      );
      await post(
        '/operator/v1/transfers',
        {
          from: { kind: 'inventory', organizationId: project.organization_id },
          to: { kind: 'adjustment' },
          creditId: issued.creditId,
          amount: 1,
        },
        `bench-transfer-${i}`,
      );
      if (i >= 20) times.push(performance.now() - started);
    }
    return { p50: percentile(times, 50), p99: percentile(times, 99) };
  } finally {
    await server.close();
    registry.close();
    data.remove();
  }
}

function auditSearch(): { p50: number; p95: number; fillSeconds: number } {
  const dir = mkdtempSync(join(tmpdir(), 'bench-audit-'));
  const registry = openRegistry({ dataDir: dir });
  try {
    const operators = Array.from({ length: 20 }, (_, i) => `operator-${i}`);
    const targets = Array.from({ length: 20_000 }, (_, i) => `target-${i}`);
    const actions = ['credits.issue', 'credits.transfer', 'organizations.create', 'projects.setStatus', 'warehouse.deposit'];
    const start = Date.parse('2025-01-01T00:00:00Z');
    const year = 365 * 24 * 60 * 60 * 1000;
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const filled = performance.now();
    let t = start;
    const clock = { now: () => t };
    const ctx = { ...registry, clock };
    for (let batch = 0; batch < AUDIT_ENTRIES / 10_000; batch++) {
      registry.db.transaction(() => {
        for (let i = 0; i < 10_000; i++) {
          t += year / AUDIT_ENTRIES;
          appendAudit(ctx, {
            operatorId: operators[Math.floor(random() * operators.length)]!,
            actor: 'bench',
            action: actions[Math.floor(random() * actions.length)]!,
            targetIds: [targets[Math.floor(random() * targets.length)]!, targets[Math.floor(random() * targets.length)]!],
            outcome: random() < 0.9 ? 'succeeded' : 'refused',
            detail: { input: { amount: 1 } },
          });
        }
      });
    }
    const fillSeconds = (performance.now() - filled) / 1000;
    registry.db.raw.pragma('optimize');
    const times: number[] = [];
    for (let i = 0; i < SEARCHES + 20; i++) {
      const from = start + random() * year * 0.8;
      const started = performance.now();
      searchAudit(registry, {
        limit: 50,
        operatorId: operators[Math.floor(random() * operators.length)]!,
        targetId: targets[Math.floor(random() * targets.length)]!,
        from,
        to: from + year * 0.2,
      });
      if (i >= 20) times.push(performance.now() - started);
    }
    return { p50: percentile(times, 50), p95: percentile(times, 95), fillSeconds };
  } finally {
    registry.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const suite: BenchSuite = {
  name: `operator interface: writes at --scale ${SCALE}, audit search over ${AUDIT_ENTRIES.toLocaleString('en')} entries`,
  async run() {
    const s = 'operator';
    // BENCH_OPERATOR_WRITES=off measures the audit search alone
    const trips = process.env.BENCH_OPERATOR_WRITES === 'off' ? { p50: NaN, p99: NaN } : await roundTrips();
    const audit = auditSearch();
    return [
      { suite: s, name: 'issuance + transfer round trip p50', value: trips.p50, unit: 'ms' },
      { suite: s, name: 'issuance + transfer round trip p99', value: trips.p99, unit: 'ms', target: '< 20 ms', pass: trips.p99 < 20 },
      { suite: s, name: 'audit search (operator, target, dates) p50', value: audit.p50, unit: 'ms' },
      {
        suite: s,
        name: 'audit search (operator, target, dates) p95',
        value: audit.p95,
        unit: 'ms',
        target: '< 20 ms',
        pass: audit.p95 < 20,
      },
      { suite: s, name: 'audit log fill (setup)', value: audit.fillSeconds, unit: 's' },
    ] satisfies BenchFigure[];
  },
};
