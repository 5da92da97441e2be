// What seed.test.ts checks the demo seed with: the credentials file's shape written out as a
// contract, a seed in a new folder, a digest of every table's rows, and a row count.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { openRegistry, type OpenedRegistry } from '@registry/open';
import { seedDemo, type SeedDemoResult } from '@registry/seed';
import { makeDataDir } from '@test/support/registry';

// Written out here on purpose (not imported from the seed): the file's shape is a contract.
export const credentialsFileSchema = z.strictObject({
  app: z.strictObject({ id: z.string(), name: z.string(), privateKeyPem: z.string() }),
  installations: z.array(z.strictObject({ id: z.string(), organizationId: z.string(), permissions: z.record(z.string(), z.string()) })),
  wallets: z.array(
    z.strictObject({
      address: z.string(),
      privateKey: z.string(),
      retirements: z.array(z.strictObject({ id: z.string(), projectAddress: z.string(), tokenId: z.string() })),
    }),
  ),
  operators: z.array(
    z.strictObject({ id: z.string(), name: z.string(), role: z.enum(['viewer', 'manager', 'administrator']), privateKeyPem: z.string() }),
  ),
});

export interface Seeded {
  dir: { dir: string; remove(): void };
  registry: OpenedRegistry;
  result: SeedDemoResult;
}

export function seedInNewFolder(options: { seed?: string } = {}): Seeded {
  const dir = makeDataDir('seed-test-');
  const registry = openRegistry({ dataDir: dir.dir });
  const result = seedDemo(registry, { scale: 1, dataDir: dir.dir, ...options });
  return { dir, registry, result };
}

/** sha256 over every row of every table in a fixed order; the demo app's and operators' fresh RSA keys left out. */
export function digestOfTables(registry: OpenedRegistry): { digest: string; rows: number } {
  const tables = registry.db.raw
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all() as { name: string }[];
  const hash = createHash('sha256');
  let rows = 0;
  for (const { name } of tables) {
    const columns = (registry.db.raw.prepare(`PRAGMA table_info(${name})`).all() as { name: string }[])
      .map((c) => c.name)
      .filter((c) => !((name === 'apps' || name === 'operators') && c === 'public_key_pem'));
    const list = columns.map((c) => `"${c}"`).join(', ');
    for (const row of registry.db.raw.prepare(`SELECT ${list} FROM ${name} ORDER BY ${list}`).raw().iterate()) {
      hash.update(`${name}:${JSON.stringify(row)}\n`);
      rows++;
    }
  }
  return { digest: hash.digest('hex'), rows };
}

export const count = (r: OpenedRegistry, sql: string, ...params: unknown[]) => (r.db.raw.prepare(sql).get(...params) as { n: number }).n;
