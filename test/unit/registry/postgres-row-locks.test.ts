// On PostgreSQL a reservation runs READ COMMITTED behind its credit's warehouse balance row lock,
// while every other write stays SERIALIZABLE. Interleaved on two connections of one database: a
// withdrawal that read the holds before a reservation committed cannot then take the reserved
// credits (both stamp the warehouse's feed key, so it fails to write it), runs again and takes only
// what is free. Reservations against reservations: test/integration/registry/postgres-processes.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@platform/clock';
import type { PostgresDatabase } from '@platform/db/postgres';
import { openPostgresRegistry, type OpenedPostgresRegistry, type OpenedRegistry } from '@registry/open';
import * as ops from '@registry/operations';
import type { RegistryTables } from '@registry/schema';
import { availableInWarehouse } from '@registry/warehouse/inventory';
import { reserveCredits } from '@registry/warehouse/reservations';
import { makeDataDir, ON_POSTGRES, openTestRegistryOn, rsaKeyPair } from '@test/support/registry';
import { inventoryBalance, warehouseBalance } from '@test/support/warehouse';
import { stockWarehouse } from '@test/support/stocked-warehouse';

describe.skipIf(!ON_POSTGRES)('a reservation behind a row lock beside a serializable withdrawal (PostgreSQL)', () => {
  let data: ReturnType<typeof makeDataDir>;
  const clock = new ManualClock(Date.parse('2025-01-01T00:00:00Z'));
  let a: OpenedRegistry;
  let b: OpenedPostgresRegistry;
  const ids = { org: '', credit: '', app: '' };

  beforeAll(() => {
    data = makeDataDir('row-locks-');
    a = openTestRegistryOn(data, clock);
    b = openPostgresRegistry({ databaseUrl: (a.db as unknown as PostgresDatabase<RegistryTables>).url, clock });
    const validator = ops.createOrganization(a, { fullName: 'VVB', type: 'validationVerificationBody', countryCode: 'GB', verified: true });
    ids.org = ops.createOrganization(a, { fullName: 'Seller', countryCode: 'KE', verified: true }).id;
    const stock = { organizationId: ids.org, verificationBodyId: validator.id, projectName: 'Forest', vintages: ['2022'] };
    [ids.credit] = stockWarehouse(a, { ...stock, issue: 100, deposit: 40 }) as [string];
    ids.app = ops.createApp(a, { name: 'Market', publicKeyPem: rsaKeyPair(0).publicKeyPem }).id;
  });
  afterAll(() => {
    b?.close();
    a?.close();
    data?.remove();
  });

  it('a withdrawal that read the holds before a reservation committed runs again and takes only what is free', () => {
    let attempts = 0;
    a.db.transaction(() => {
      attempts += 1;
      const free = availableInWarehouse(a, ids.org, ids.credit); // 40 t in this snapshot
      // meanwhile, on the other connection, a reservation of 30 t commits
      if (attempts === 1) reserveCredits(b, { organizationId: ids.org, appId: ids.app, creditId: ids.credit, amount: 30 });
      ops.withdrawFromWarehouse(a, { organizationId: ids.org, creditId: ids.credit, amount: free / 1e6 });
    });
    expect(attempts).toBe(2);
    expect(warehouseBalance(a, ids.org, ids.credit)).toBe(30_000_000);
    expect(availableInWarehouse(a, ids.org, ids.credit)).toBe(0);
    expect(inventoryBalance(a, ids.org, ids.credit)).toBe(70_000_000);
  });
});
