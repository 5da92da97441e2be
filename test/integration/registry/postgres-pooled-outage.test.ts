// The outage tests once more through PgBouncer in transaction pooling mode (scripts/pgbouncer.sh in
// front of a cluster of this test's own): PostgreSQL stopped behind a running PgBouncer mid-traffic
// and started again, and PostgreSQL frozen (SIGSTOP) behind it. The registry's connection is to
// PgBouncer, which stays up: its statements wait on a server connection PgBouncer cannot give, so
// only the registry's own deadline and PgBouncer's errors can answer them. 503s while away, served
// again after, every accepted write applied exactly once.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { openPostgresRegistry, type OpenedPostgresRegistry, type OpenedRegistry } from '../../../electron/core/registry/open';
import * as ops from '../../../electron/core/registry/operations';
import { PostgresDatabase } from '../../../electron/core/platform/db/postgres';
import { buildFixture, type Fixture } from '../../support/fixture';
import { NO_POSTGRES_MESSAGE, POSTGRES_URL, withDatabase } from '../../support/postgres';
import {
  startThrowawayPgBouncer,
  startThrowawayPostgres,
  type ThrowawayPgBouncer,
  type ThrowawayPostgres,
} from '../../support/throwaway-postgres';
import { createTestApp } from '../../support/registry';
import { startServerProcess, type ServerProcess } from '../../support/registry-processes';
import { answeredThroughFreeze, reservationsThroughOutage } from '../../support/outage-traffic';

const STATEMENT_TIMEOUT_MS = 1000;
const HAS_PGBOUNCER = (() => {
  try {
    execFileSync('pgbouncer', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

if (!POSTGRES_URL) console.warn(NO_POSTGRES_MESSAGE);
if (POSTGRES_URL && !HAS_PGBOUNCER) console.warn('PgBouncer outage tests skipped: pgbouncer is not installed (apt-get install pgbouncer)');

describe.skipIf(!POSTGRES_URL || !HAS_PGBOUNCER)('the shared registry behind PgBouncer survives its database', () => {
  let pg: ThrowawayPostgres;
  let bouncer: ThrowawayPgBouncer;
  let registry: OpenedPostgresRegistry;
  let f: Fixture;
  let token: string;
  let servers: ServerProcess[] = [];

  beforeAll(async () => {
    pg = await startThrowawayPostgres();
    const admin = new PostgresDatabase<unknown>(pg.url);
    admin.exec('CREATE DATABASE registry_pooled');
    admin.close();
    // the test reads and sets up directly; the servers go through PgBouncer
    registry = openPostgresRegistry({ databaseUrl: withDatabase(pg.url, 'registry_pooled') });
    f = buildFixture(registry as unknown as OpenedRegistry);
    const app = createTestApp(registry as unknown as OpenedRegistry, { name: 'Pooled faults app' });
    const permissions = { organization_warehouse: 'WRITE' } as const;
    const installationId = ops.installApp(registry, { appId: app.id, organizationId: f.orgA, permissions }).id;
    bouncer = await startThrowawayPgBouncer(pg);
    const url = `${withDatabase(bouncer.url, 'registry_pooled')}&statement_timeout=${STATEMENT_TIMEOUT_MS}`;
    servers = await Promise.all([0, 1].map(() => startServerProcess(url)));
    const res = await fetch(`${servers[0]!.url}/app/installations/${installationId}/accessTokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await app.jwt()}` },
    });
    token = ((await res.json()) as { token: string }).token;
  }, 120_000);

  afterAll(async () => {
    for (const s of servers) s.child.kill('SIGKILL');
    registry?.close();
    await bouncer?.destroy();
    await pg?.destroy();
  });

  it('PostgreSQL stopped behind PgBouncer mid-traffic: 503s while down, served again after, every accepted write once', async () => {
    const outage = { begin: () => pg.stop('immediate'), end: () => pg.start() };
    await reservationsThroughOutage({ registry, f, servers, token }, outage, 3000);
  }, 60_000);

  it('PostgreSQL frozen behind PgBouncer: 503 within the statement timeout, served again after SIGCONT', async () => {
    let frozen: number[] = [];
    const freeze = { begin: () => (frozen = pg.freeze()), end: () => pg.thaw(frozen) };
    await answeredThroughFreeze({ registry, f, servers, token }, freeze, { limitMs: STATEMENT_TIMEOUT_MS + 2000, backWithinMs: 3000 });
  }, 30_000);
});
