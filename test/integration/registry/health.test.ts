// GET /healthz and GET /readyz, for a load balancer: no credentials, no rate limit, in the OpenAPI
// document; /readyz is 503 (error shape, Retry-After) while the database holds another schema than
// this build's. (Its 503 while the database is down: postgres-outage.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRegistry, type TestRegistry } from '@test/support/registry';

describe('health endpoints', () => {
  let t: TestRegistry;
  beforeAll(async () => {
    t = await startTestRegistry({ rateLimit: { requests: 2, windowMs: 3_600_000 } });
  });
  afterAll(() => t?.close());

  // the test registry is typed as SQLite's; on the postgres project it is PostgreSQL's
  const db = () => t.registry.db as { engine: string; prepare(sql: string): { run(...values: unknown[]): unknown } };
  const setSchemaVersion = (version: number) =>
    db().engine === 'postgres'
      ? db().prepare('UPDATE schema_version SET version = ?').run(version)
      : db().prepare(`PRAGMA user_version = ${version}`).run();
  const schemaVersion = () => t.registry.migration.to;

  it('answer without credentials, however often (never rate limited)', async () => {
    for (let i = 0; i < 5; i++) {
      const alive = await t.call('/healthz');
      expect([alive.status, await alive.json()]).toEqual([200, { status: 'alive' }]);
      const ready = await t.call('/readyz');
      expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready' }]);
    }
  });

  it('/readyz is 503 while the database holds another schema version', async () => {
    setSchemaVersion(schemaVersion() + 1);
    try {
      const res = await t.call('/readyz');
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(await res.json()).toEqual({
        statusCode: 503,
        error: 'Service Unavailable',
        message: `The database holds schema version ${schemaVersion() + 1}; this registry needs ${schemaVersion()}`,
      });
      expect((await t.call('/healthz')).status).toBe(200);
    } finally {
      setSchemaVersion(schemaVersion());
    }
    expect((await t.call('/readyz')).status).toBe(200);
  });

  it('are in the OpenAPI document', async () => {
    const doc = (await (await t.call('/openapi.json')).json()) as { paths: Record<string, { get?: { security: unknown[] } }> };
    expect(doc.paths['/healthz']?.get?.security).toEqual([]);
    expect(doc.paths['/readyz']?.get?.security).toEqual([]);
  });
});
