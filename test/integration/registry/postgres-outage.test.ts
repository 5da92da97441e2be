// The shared registry against real database faults, on a PostgreSQL cluster of this test's own
// (scripts/postgres.sh on a free port; the shared test server is never stopped): the cluster
// stopped like a crash mid-traffic and started again, backends terminated, a restart while idle,
// one Idempotency-Key sent to two processes at once, SIGTERM mid-traffic. Every accepted write must
// be applied exactly once; outages answer 503 with Retry-After.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresRegistry, type OpenedPostgresRegistry, type OpenedRegistry } from '../../../electron/core/registry/open';
import * as ops from '../../../electron/core/registry/operations';
import { balanceOf, findAccountId } from '../../../electron/core/registry/ledger';
import { PostgresDatabase } from '../../../electron/core/platform/db/postgres';
import { buildFixture, type Fixture } from '../../support/fixture';
import { NO_POSTGRES_MESSAGE, POSTGRES_URL, withDatabase } from '../../support/postgres';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../../support/throwaway-postgres';
import { createTestApp, type TestApp } from '../../support/registry';
import { createTestOperator } from '../../support/operators';

const SERVER_SCRIPT = join(import.meta.dirname, '../../support/warehouse-server.ts');
const G = 1_000_000;

if (!POSTGRES_URL) console.warn(NO_POSTGRES_MESSAGE);

interface Server {
  child: ChildProcess;
  url: string;
  lines: Interface;
  stderr: () => string;
}

async function startServer(databaseUrl: string, env: Record<string, string> = {}): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER_SCRIPT, databaseUrl], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const lines = createInterface({ input: child.stdout });
  const line = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
  });
  return { child, url: (JSON.parse(line) as { url: string }).url, lines, stderr: () => stderr };
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

interface Answer {
  server: number;
  status: number;
  body: Record<string, unknown>;
  retryAfter: string | null;
  sentAt: number;
}

describe.skipIf(!POSTGRES_URL)('the shared registry survives its database', () => {
  let pg: ThrowawayPostgres;
  let databaseUrl: string;
  let registry: OpenedPostgresRegistry;
  let f: Fixture;
  let app: TestApp;
  let token: string;
  let servers: Server[] = [];

  const reservations = () => `/organizations/${f.orgA}/warehouse/inventory/reservations`;
  const warehouse = () => balanceOf(registry, findAccountId(registry, { kind: 'warehouse', organizationId: f.orgA })!, f.creditId);
  const query = (sql: string, values: unknown[] = []) => registry.db.query(sql, values);

  /**
   * One request; status 0 when the connection was reset before an answer (Node's keep-alive timer
   * can close a socket the client is reusing when a process was blocked connecting, under load):
   * its outcome is unknown, like a 503 that says so.
   */
  async function send(server: number, path: string, init: { method?: string; body?: unknown; bearer?: string; key?: string } = {}) {
    const sentAt = performance.now();
    let res: Response;
    try {
      res = await fetch(`${servers[server]!.url}${path}`, {
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers: {
          authorization: `Bearer ${init.bearer ?? token}`,
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(init.key ? { 'idempotency-key': init.key } : {}),
        },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
    } catch {
      return { server, status: 0, body: {}, retryAfter: null, sentAt } satisfies Answer;
    }
    const answer: Answer = {
      server,
      status: res.status,
      body: (await res.json()) as Record<string, unknown>,
      retryAfter: res.headers.get('retry-after'),
      sentAt,
    };
    return answer;
  }

  /** Every 503 in the error shape with Retry-After; nothing else but `allowed`. */
  function expectAnswered(answers: Answer[], allowed: number[]) {
    expect(answers.map((a) => a.status).filter((s) => !allowed.includes(s) && s !== 503)).toEqual([]);
    for (const a of answers.filter((x) => x.status === 503)) {
      expect(a.body).toMatchObject({ statusCode: 503, error: 'Service Unavailable', message: expect.any(String) });
      expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
    }
  }

  /** Resolves once every queued transaction was processed (the workers resume by themselves). */
  async function drained(): Promise<void> {
    const queued = () => Number(query(`SELECT COUNT(*) AS n FROM transactions WHERE state = 'pending_queue'`)[0]!.n);
    while (queued() > 0) {
      await Promise.race(
        servers.filter((s) => s.child.exitCode === null).map((s) => new Promise((resolve) => s.lines.once('line', resolve))),
      );
    }
  }

  beforeAll(async () => {
    pg = await startThrowawayPostgres();
    const admin = new PostgresDatabase<unknown>(pg.url);
    admin.exec('CREATE DATABASE registry_faults');
    admin.close();
    databaseUrl = withDatabase(pg.url, 'registry_faults');
    registry = openPostgresRegistry({ databaseUrl });
    f = buildFixture(registry as unknown as OpenedRegistry);
    app = createTestApp(registry as unknown as OpenedRegistry, { name: 'Faults app' });
    const installationId = ops.installApp(registry, {
      appId: app.id,
      organizationId: f.orgA,
      permissions: { organization_warehouse: 'WRITE' },
    }).id;
    servers = await Promise.all([0, 1].map(() => startServer(databaseUrl)));
    const res = await fetch(`${servers[0]!.url}/app/installations/${installationId}/accessTokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await app.jwt()}` },
    });
    token = ((await res.json()) as { token: string }).token;
  }, 120_000);

  afterAll(async () => {
    for (const s of servers) s.child.kill('SIGKILL');
    registry?.close();
    await pg?.destroy();
  });

  it('one Idempotency-Key sent to both processes at once: one effect, one answer', async () => {
    const operator = createTestOperator(registry as unknown as OpenedRegistry, 'administrator', 3);
    const minted = await fetch(`${servers[0]!.url}/operator/v1/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await operator.jwt()}` },
    });
    const bearer = ((await minted.json()) as { token: string }).token;
    const body = {
      from: { kind: 'inventory', organizationId: f.orgA },
      to: { kind: 'inventory', organizationId: f.orgB },
      creditId: f.creditId,
      amount: 1,
    };
    const keys = Array.from({ length: 30 }, () => randomUUID());
    const answers = await Promise.all(
      keys.flatMap((key) => [0, 1].map((server) => send(server, '/operator/v1/transfers', { body, bearer, key }))),
    );
    expectAnswered(answers, [201]);
    const byKey = keys.map((_, i) => [answers[2 * i]!, answers[2 * i + 1]!] as const);
    for (const [a, b] of byKey) if (a.status === 201 && b.status === 201) expect(a.body).toEqual(b.body);
    const moved = query(`SELECT COUNT(*) AS n, COALESCE(SUM(amount), 0) AS total FROM movements WHERE kind = 'transfer' AND amount = $1`, [
      G,
    ]);
    expect(moved).toEqual([{ n: 30, total: 30 * G }]);
    expect(query(`SELECT COUNT(*) AS n FROM audit_log WHERE action = 'credits.transfer' AND outcome = 'succeeded'`)).toEqual([{ n: 30 }]);
  });

  it('PostgreSQL stopped like a crash mid-traffic: 503s while down, serving within 2 s of its return, every accepted write once', async () => {
    const before = warehouse();
    const answers: { reserve: Answer; finish?: Answer; reservationId?: string }[] = [];
    let phase: 'up' | 'down' | 'back' | 'stop' = 'up';
    let downSince = 0;
    let backAt = 0;
    const waiters: (() => void)[] = [];
    const changed = () => waiters.splice(0).forEach((w) => w());
    const until = async (condition: () => boolean) => {
      while (!condition()) await new Promise<void>((resolve) => waiters.push(resolve));
    };
    const loop = async (server: number) => {
      while (phase !== 'stop') {
        const reserve = await send(server, reservations(), { body: { creditId: f.creditId, amount: 0.001 } });
        const entry: (typeof answers)[number] = { reserve };
        answers.push(entry);
        if (reserve.status === 200) {
          entry.reservationId = reserve.body.id as string;
          entry.finish = await send(server, `${reservations()}/${entry.reservationId}/transfer`, { body: { receiverId: f.orgB } });
        }
        changed();
      }
    };
    const all = () => answers.flatMap((a) => (a.finish ? [a.reserve, a.finish] : [a.reserve]));
    const loops = [0, 1, 0, 1].map(loop);
    await until(() => answers.filter((a) => a.finish?.status === 200).length >= 10);

    await pg.stop('immediate');
    phase = 'down';
    downSince = performance.now();
    for (const server of [0, 1]) {
      await until(() => all().filter((a) => a.server === server && a.sentAt > downSince && a.status === 503).length >= 3);
      expect((await fetch(`${servers[server]!.url}/readyz`)).status).toBe(503);
    }

    await pg.start();
    phase = 'back';
    backAt = performance.now();
    const servedAgain = (server: number) => all().find((a) => a.server === server && a.sentAt > backAt && a.status === 200);
    await until(() => servedAgain(0) !== undefined && servedAgain(1) !== undefined);
    for (const server of [0, 1]) expect(servedAgain(server)!.sentAt - backAt).toBeLessThan(2000);
    phase = 'stop';
    await Promise.all(loops);
    for (const server of [0, 1]) expect((await fetch(`${servers[server]!.url}/readyz`)).status).toBe(200);

    expectAnswered(all(), [200, 0]);
    expect(all().filter((a) => a.status === 0).length).toBeLessThanOrEqual(4);
    await drained();
    // accepted reservations exist; others only where the outcome was unknown (never answered done)
    const mine = query(`SELECT id FROM reservations WHERE organization_id = $1 AND amount = 1000`, [f.orgA]) as { id: string }[];
    const accepted = answers.filter((a) => a.reserve.status === 200).map((a) => a.reservationId!);
    const unknown = answers.filter(
      (a) => a.reserve.status === 0 || (a.reserve.status === 503 && /cannot tell/.test(String(a.reserve.body.message))),
    ).length;
    expect(mine.map((r) => r.id)).toEqual(expect.arrayContaining(accepted));
    expect(mine.length - accepted.length).toBeLessThanOrEqual(unknown);
    // each accepted finish: its transaction processed, its credits moved once
    const finished = answers.filter((a) => a.finish?.status === 200).map((a) => a.finish!.body.transactionId as string);
    const transactions = query(
      `SELECT t.id, t.state, (SELECT COUNT(*) FROM movements m WHERE m.reference = t.id) AS moves FROM transactions t
       JOIN reservations r ON r.id = t.reservation_id WHERE r.organization_id = $1 AND r.amount = 1000`,
      [f.orgA],
    ) as { id: string; state: string; moves: number }[];
    expect(transactions.map((t) => t.id)).toEqual(expect.arrayContaining(finished));
    for (const t of transactions) expect(t).toMatchObject({ state: 'processed', moves: 1 });
    expect(warehouse()).toBe(before - transactions.length * 1000);
    // one line when the outage starts, one when it ends: never one per request or per poll
    for (const s of servers)
      expect(
        s
          .stderr()
          .split('\n')
          .filter((l) => /connection lost/.test(l)).length,
      ).toBeLessThanOrEqual(2);
  }, 60_000);

  it('backends terminated (pg_terminate_backend), then a restart while idle: served again within 2 s, no request lost to a 500', async () => {
    const inventory = `/organizations/${f.orgA}/warehouse/inventory`;
    /** Each server asked until it answers 200: answers in between are 503s; answers how many. */
    const probe = async (since: number) => {
      const unavailable: number[] = [];
      for (const server of [0, 1]) {
        const answers: Answer[] = [];
        do answers.push(await send(server, inventory));
        while (answers.at(-1)!.status === 503 && answers.length < 200);
        expectAnswered(answers, [200]);
        expect(answers.at(-1)!.status).toBe(200);
        expect(answers.at(-1)!.sentAt - since).toBeLessThan(2000);
        unavailable.push(answers.length - 1);
      }
      return unavailable;
    };
    query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`);
    // a terminated backend is replaced on the spot: the request that finds it cut is run again
    expect(await probe(performance.now())).toEqual([0, 0]);

    await pg.stop('immediate');
    await pg.start();
    await probe(performance.now());
  }, 30_000);

  it('SIGTERM mid-traffic: stops accepting, answers what it took in, exits 0; the other process finishes the queue', async () => {
    const [, victim] = servers as [Server, Server];
    // 20 reservations at once; SIGTERM once the first three are answered (the rest in flight)
    let answered = 0;
    const sent = Array.from({ length: 20 }, () =>
      send(1, reservations(), { body: { creditId: f.creditId, amount: 0.001 } }).then(
        (answer) => {
          if (++answered === 3) victim.child.kill('SIGTERM');
          return answer;
        },
        () => 'refused' as const,
      ),
    );
    expect(await exited(victim.child)).toBe(0);
    const answers = (await Promise.all(sent)).filter((a): a is Answer => a !== 'refused' && a.status !== 0);
    expectAnswered(answers, [200]);
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(0);
    await drained();
  }, 30_000);
});
