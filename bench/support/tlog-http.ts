// Issue 29's cost bench as a client sees it: operator transfers over HTTP (a real token, a few
// concurrent clients) against a registry server in its own process (tlog-server.ts), with or
// without the log, and the CPU each request took in the server process and, on PostgreSQL, its
// backends (from /proc). Each transfer is one transaction: a movement and its audit entry, as the
// in-process figure's write, plus everything a request adds (HTTP, token check, input checks,
// idempotency key).
import { generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { createOperator } from '@registry/operations/operators';
import { cpuMs } from './cpu';
import { startScript } from './processes';
import { openRegistryAt, stockWorld } from './tlog-registry';
import type { Engine } from './tlog-writes';

/** Concurrent clients, each sending its next transfer when the last one is answered. */
export const HTTP_CLIENTS = 4;
const WRITES = Number(process.env.BENCH_TLOG_HTTP_WRITES ?? 2000);
const PG_WRITES = Number(process.env.BENCH_TLOG_HTTP_PG_WRITES ?? 1000);
const WARM_UP = 100;

export const httpWrites = (engine: Engine) => (engine.name === 'SQLite' ? WRITES : PG_WRITES);

interface Setup {
  orgA: string;
  orgB: string;
  creditId: string;
  operatorId: string;
  privateKey: ReturnType<typeof generateKeyPairSync>['privateKey'];
}

/** The stocked world of tlog-registry.ts, plus a manager operator whose key the bench holds. */
function prepare(target: string, withLog: boolean): Setup {
  const r = openRegistryAt(target, withLog);
  try {
    const w = stockWorld(r);
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const { operator } = createOperator(r, {
      name: 'Bench manager',
      role: 'manager',
      publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    });
    return { orgA: w.orgA, orgB: w.orgB, creditId: w.creditId, operatorId: operator.id, privateKey };
  } finally {
    r.close();
  }
}

/** An operator token, as an operator's tool gets one: a short-lived signed assertion, exchanged. */
async function operatorToken(url: string, s: Setup): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const jwt = await new SignJWT({})
    .setProtectedHeader({ alg: 'RS256' })
    .setIssuer(s.operatorId)
    .setIssuedAt(now - 60)
    .setExpirationTime(now + 540)
    .sign(s.privateKey);
  const res = await fetch(`${url}/operator/v1/tokens`, { method: 'POST', headers: { authorization: `Bearer ${jwt}` } });
  if (res.status !== 200 && res.status !== 201) throw new Error(`the operator token answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** CPU ms per process now, by pid. */
const cpuOf = (pids: readonly number[]) => new Map(pids.map((pid) => [pid, cpuMs([pid])]));

/**
 * Transfers per second through the HTTP API and the CPU µs per transfer of the server process plus
 * (PostgreSQL) its backends, over `httpWrites(engine)` transfers of 1 t from the seller's inventory
 * to the buyer's, HTTP_CLIENTS at once. The span ends with a checkpoint covering every leaf (signed
 * through the bench server's own route; nothing without the log), as the in-process figure charges it.
 */
export async function httpWritesPerSecond(engine: Engine, withLog: boolean): Promise<{ rate: number; cpuPerWrite: number }> {
  const where = engine.fresh();
  try {
    const setup = prepare(where.target, withLog);
    const server = await startScript<{ url: string }>('bench/support/tlog-server.ts', [where.target, withLog ? 'with' : 'without']);
    try {
      const { url } = server.info;
      const token = await operatorToken(url, setup);
      let sent = 0;
      const transfer = async () => {
        const key = `bench-transfer-${sent++}`;
        const res = await fetch(`${url}/operator/v1/transfers`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key },
          body: JSON.stringify({
            from: { kind: 'inventory', organizationId: setup.orgA },
            to: { kind: 'inventory', organizationId: setup.orgB },
            creditId: setup.creditId,
            amount: 1,
          }),
        });
        const text = await res.text();
        if (res.status !== 201) throw new Error(`a transfer answered ${res.status}: ${text}`);
      };
      const clients = async (count: number) => {
        const each = Math.ceil(count / HTTP_CLIENTS);
        await Promise.all(
          Array.from({ length: HTTP_CLIENTS }, async () => {
            for (let i = 0; i < each; i++) await transfer();
          }),
        );
        return each * HTTP_CLIENTS;
      };
      const checkpoint = async () => {
        const res = await fetch(`${url}/__bench__/checkpoint`, { method: 'POST' });
        if (res.status !== 200) throw new Error(`the bench checkpoint answered ${res.status}: ${await res.text()}`);
      };
      await clients(WARM_UP);
      await checkpoint();
      const pids = () => [server.child.pid!, ...(where.backends?.() ?? [])];
      const before = cpuOf(pids());
      const started = performance.now();
      const made = await clients(httpWrites(engine));
      await checkpoint();
      const seconds = (performance.now() - started) / 1000;
      // a backend opened during the span counts from 0: all of its time is the span's
      const after = cpuOf(pids());
      let used = 0;
      for (const [pid, ms] of after) used += ms - (before.get(pid) ?? 0);
      return { rate: made / seconds, cpuPerWrite: (used * 1000) / made };
    } finally {
      await server.stop();
    }
  } finally {
    where.remove();
  }
}
