// On PostgreSQL a transaction that collides with concurrent ones (a serialization failure, a
// deadlock) is rolled back and run again, a bounded number of times. When the retries run out the
// request is answered 503 with Retry-After, not 500: nothing was written, and the client may send it
// again. The collision is PostgreSQL's own serialization_failure, raised by a trigger for as long as
// the test keeps it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strict } from '@shared/registry/resources';
import type { PostgresDatabase } from '@platform/db/postgres';
import { ON_POSTGRES } from '@test/support/registry';
import { callEndpoint, ok, registrySnapshot, startWarehouseWorld, type WarehouseWorld } from '@test/support/warehouse';

describe.skipIf(!ON_POSTGRES)('a write that keeps colliding (PostgreSQL)', () => {
  let w: WarehouseWorld;
  beforeAll(async () => {
    w = await startWarehouseWorld();
  });
  afterAll(() => w?.t.close());

  const reserve = () =>
    callEndpoint(w.t, 'createReservation', { token: w.writeToken, params: { id: w.f.orgA }, body: { creditId: w.f.creditId, amount: 1 } });

  it('is answered 503 with Retry-After once its retries run out, and changes nothing; sent again later, it is made', async () => {
    const db = w.t.registry.db as unknown as PostgresDatabase<unknown>;
    db.exec(`
      CREATE FUNCTION collide_on_purpose() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'collided on purpose' USING ERRCODE = 'serialization_failure'; END $$;
      CREATE TRIGGER collide_on_purpose BEFORE INSERT ON reservations FOR EACH ROW EXECUTE FUNCTION collide_on_purpose();
    `);
    const before = registrySnapshot(w.t.registry);
    const res = await reserve();
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    const body = strict.errorBody.parse(await res.json());
    expect(body).toMatchObject({ statusCode: 503, error: 'Service Unavailable' });
    expect(body.message).toMatch(/busy with concurrent changes .* nothing was changed: try again/);
    expect(registrySnapshot(w.t.registry)).toBe(before);

    db.exec('DROP TRIGGER collide_on_purpose ON reservations; DROP FUNCTION collide_on_purpose()');
    const made = await ok('createReservation', await reserve());
    expect(made.amount).toBe(1);
  });
});
