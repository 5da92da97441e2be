// Traffic through database faults, for the outage tests on PostgreSQL: requests to several server
// processes (test/support/registry-processes.ts) that record how each was answered, the checks
// that every 503 is in the error shape with Retry-After, and the mid-traffic outage scenario whose
// accepted writes must each be applied exactly once.
import { expect } from 'vitest';
import { openPostgresRegistry, type OpenedPostgresRegistry, type OpenedRegistry } from '@registry/open';
import * as ops from '@registry/operations';
import { PostgresDatabase } from '@platform/db/postgres';
import { balanceOf, findAccountId } from '@registry/ledger';
import { buildFixture, type Fixture } from './fixture';
import { withDatabase } from './postgres';
import { createTestApp, type TestApp } from './registry';
import { startServerProcess, type ServerProcess } from './registry-processes';

export interface Answer {
  server: number;
  /** What was asked: method and path. */
  asked?: string;
  status: number;
  body: Record<string, unknown>;
  retryAfter: string | null;
  /** Status 0: why the connection failed (fetch's cause), for the assertion messages. */
  failure?: string;
  sentAt: number;
  answeredAt: number;
}

export interface RequestInit {
  method?: string;
  body?: unknown;
  bearer?: string;
  key?: string;
}

/**
 * One request to `servers[server]`; status 0 when its connection failed before an answer came (its
 * outcome unknown, like a 503 that says so): each check says whether, and how often, it may happen.
 */
export async function send(servers: ServerProcess[], token: string, server: number, path: string, init: RequestInit = {}): Promise<Answer> {
  const asked = `${init.method ?? (init.body === undefined ? 'GET' : 'POST')} ${path}`;
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
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const failure = `${cause?.code ?? ''} ${cause?.message ?? String(error)}`.trim();
    return { server, asked, status: 0, body: {}, retryAfter: null, sentAt, answeredAt: performance.now(), failure };
  }
  const body = (await res.json()) as Record<string, unknown>;
  return { server, asked, status: res.status, body, retryAfter: res.headers.get('retry-after'), sentAt, answeredAt: performance.now() };
}

/** Every 503 in the error shape with Retry-After; nothing else but `allowed`. */
export function expectAnswered(answers: Answer[], allowed: number[]): void {
  const unexpected = answers.filter((a) => !allowed.includes(a.status) && a.status !== 503);
  const at = (a: Answer) =>
    `${a.asked} to server ${a.server}, ${Math.round(a.answeredAt - a.sentAt)} ms${a.failure ? `: ${a.failure}` : ''}`;
  expect(
    unexpected.map((a) => a.status),
    unexpected.map(at).join('; '),
  ).toEqual([]);
  for (const a of answers.filter((x) => x.status === 503)) {
    expect(a.body).toMatchObject({ statusCode: 503, error: 'Service Unavailable', message: expect.any(String) });
    expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
  }
}

/** Resolves once every queued transaction was processed (the servers' workers resume by themselves). */
export async function drained(registry: OpenedPostgresRegistry, servers: ServerProcess[]): Promise<void> {
  const queued = () => Number(registry.db.query(`SELECT COUNT(*) AS n FROM transactions WHERE state = 'pending_queue'`)[0]!.n);
  while (queued() > 0) {
    await Promise.race(
      servers.filter((s) => s.child.exitCode === null).map((s) => new Promise((resolve) => s.lines.once('line', resolve))),
    );
  }
}

export interface OutageRig {
  registry: OpenedPostgresRegistry;
  f: Fixture;
  app: TestApp;
  servers: ServerProcess[];
  token: string;
}

/**
 * A new database `name` on the cluster at `clusterUrl`, with the fixture, an app installed in its
 * first organization with warehouse WRITE, two servers on `serverUrl` (the database itself, or
 * PgBouncer in front of it) and an installation token. The test reads the database directly.
 */
export async function startOutageRig(clusterUrl: string, name: string, serverUrl: string): Promise<OutageRig> {
  const admin = new PostgresDatabase<unknown>(clusterUrl);
  admin.exec(`CREATE DATABASE ${name}`);
  admin.close();
  const registry = openPostgresRegistry({ databaseUrl: withDatabase(clusterUrl, name) });
  const f = buildFixture(registry as unknown as OpenedRegistry);
  const app = createTestApp(registry as unknown as OpenedRegistry, { name: `Faults app ${name}` });
  const permissions = { organization_warehouse: 'WRITE' } as const;
  const installationId = ops.installApp(registry, { appId: app.id, organizationId: f.orgA, permissions }).id;
  const servers = await Promise.all([0, 1].map(() => startServerProcess(serverUrl)));
  const res = await fetch(`${servers[0]!.url}/app/installations/${installationId}/accessTokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await app.jwt()}` },
  });
  const token = ((await res.json()) as { token: string }).token;
  return { registry, f, app, servers, token };
}

/** SIGKILLs its servers and closes the test's connection. */
export function stopOutageRig(rig: OutageRig | undefined): void {
  for (const s of rig?.servers ?? []) s.child.kill('SIGKILL');
  rig?.registry.close();
}

/**
 * Reservations of 1 kg, each finished to the second organization, sent in four loops over two
 * servers while `outage.begin()` takes the database away and `outage.end()` brings it back: 503s
 * while it is away, both servers serving within `backWithinMs` of its return, and every accepted
 * reservation and finish applied exactly once (others only where the outcome was unknown).
 */
export async function reservationsThroughOutage(
  rig: OutageRig,
  outage: { begin(): Promise<void>; end(): Promise<void> },
  backWithinMs: number,
): Promise<void> {
  const { registry, f, servers } = rig;
  const reservations = `/organizations/${f.orgA}/warehouse/inventory/reservations`;
  const warehouse = () => balanceOf(registry, findAccountId(registry, { kind: 'warehouse', organizationId: f.orgA })!, f.creditId);
  const query = (sql: string, values: unknown[] = []) => registry.db.query(sql, values);
  const before = warehouse();
  const answers: { reserve: Answer; finish?: Answer; reservationId?: string }[] = [];
  let phase: 'up' | 'down' | 'back' | 'stop' = 'up';
  const waiters: (() => void)[] = [];
  const until = async (condition: () => boolean) => {
    while (!condition()) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  const loop = async (server: number) => {
    while (phase !== 'stop') {
      const reserve = await send(servers, rig.token, server, reservations, { body: { creditId: f.creditId, amount: 0.001 } });
      const entry: (typeof answers)[number] = { reserve };
      answers.push(entry);
      if (reserve.status === 200) {
        entry.reservationId = reserve.body.id as string;
        entry.finish = await send(servers, rig.token, server, `${reservations}/${entry.reservationId}/transfer`, {
          body: { receiverId: f.orgB },
        });
      }
      waiters.splice(0).forEach((w) => w());
    }
  };
  const all = () => answers.flatMap((a) => (a.finish ? [a.reserve, a.finish] : [a.reserve]));
  const loops = [0, 1, 0, 1].map(loop);
  await until(() => answers.filter((a) => a.finish?.status === 200).length >= 10);

  await outage.begin();
  phase = 'down';
  const downSince = performance.now();
  for (const server of [0, 1]) {
    await until(() => all().filter((a) => a.server === server && a.sentAt > downSince && a.status === 503).length >= 3);
    expect((await fetch(`${servers[server]!.url}/readyz`)).status).toBe(503);
  }

  await outage.end();
  phase = 'back';
  const backAt = performance.now();
  const servedAgain = (server: number) => all().find((a) => a.server === server && a.sentAt > backAt && a.status === 200);
  await until(() => servedAgain(0) !== undefined && servedAgain(1) !== undefined);
  for (const server of [0, 1]) expect(servedAgain(server)!.sentAt - backAt).toBeLessThan(backWithinMs);
  phase = 'stop';
  await Promise.all(loops);
  for (const server of [0, 1]) expect((await fetch(`${servers[server]!.url}/readyz`)).status).toBe(200);

  // never a reset (status 0): see answeredThroughFreeze
  expectAnswered(all(), [200]);
  await drained(registry, servers);
  // accepted reservations exist; others only where the outcome was unknown (never answered done)
  const mine = query(`SELECT id FROM reservations WHERE organization_id = $1 AND amount = 1000`, [f.orgA]) as { id: string }[];
  const accepted = answers.filter((a) => a.reserve.status === 200).map((a) => a.reservationId!);
  const unknown = answers.filter((a) => a.reserve.status === 503 && /cannot tell/.test(String(a.reserve.body.message))).length;
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
        .filter((l) => /connection lost|no answer within/.test(l)).length,
    ).toBeLessThanOrEqual(2);
}

/**
 * The database frozen (`freeze`: SIGSTOP to PostgreSQL, or what a pooler fronts) while both servers
 * serve: reads and writes sent to each are answered 503 within `limitMs` (the statement timeout and
 * its grace, plus slack), the next ones at once; after `thaw` each server serves again within
 * `backWithinMs`. None is reset: a process held on its main connection's deadline keeps its idle
 * kept-alive connections open past that hold (connection-limits.ts, serverOptionsFor), and a
 * database connection libpq found cut is let go before its socket's number can be reused
 * (postgres-dropped-socket.ts: once, through PgBouncer, a client's connection was never read again).
 */
export async function answeredThroughFreeze(
  rig: OutageRig,
  freeze: { begin(): void; end(): void },
  limits: { limitMs: number; backWithinMs: number },
): Promise<void> {
  const { f, servers, token } = rig;
  const inventory = `/organizations/${f.orgA}/warehouse/inventory`;
  const wave = () =>
    Promise.all(
      [0, 1].flatMap((server) => [
        send(servers, token, server, inventory),
        send(servers, token, server, `${inventory}/reservations`, { body: { creditId: f.creditId, amount: 0.002 } }),
        send(servers, token, server, inventory),
      ]),
    );
  const before = await wave();
  expectAnswered(before, [200]);
  freeze.begin();
  try {
    for (const answers of [await wave(), await wave()]) {
      expectAnswered(answers, []);
      for (const a of answers) {
        const why = `${a.asked} to server ${a.server}: ${a.status}; server log: ${servers[a.server]!.stderr().split('\n').slice(-8).join(' | ')}`;
        expect(a.answeredAt - a.sentAt, why).toBeLessThan(limits.limitMs);
      }
    }
  } finally {
    freeze.end();
  }
  const thawedAt = performance.now();
  for (const server of [0, 1]) {
    const answers: Answer[] = [];
    do answers.push(await send(servers, token, server, inventory));
    while (answers.at(-1)!.status === 503 && answers.length < 2000);
    expectAnswered(answers, [200]);
    expect(answers.at(-1)!.status).toBe(200);
    expect(answers.at(-1)!.sentAt - thawedAt).toBeLessThan(limits.backWithinMs);
  }
}
