// Cache migration 0004: inventory credits one row each, searchable, converted from the version-3
// blobs (one JSON answer per account) inside the migration.
import BetterSqlite3 from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '@platform/db/migrate';
import { openDeskCache } from '@desk/cache';
import { hashJson } from '@desk/cache/rows';
import { migration0001 } from '@desk/cache/migrations/0001-resources';
import { migration0002 } from '@desk/cache/migrations/0002-search';
import { migration0003 } from '@desk/cache/migrations/0003-fast-search';
import { migration0004 } from '@desk/cache/migrations/0004-inventory-credits';
import type { InventoryCredit } from '@shared/registry/resources';
import { makeDataDir } from '@test/support/registry';

const dirs: { remove(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.remove()));

const organization = {
  fullName: 'Registry Operator',
  logo: 'https://example.org/logo.png',
  id: 'op-1',
  publicUrl: 'https://example.org/op',
};

function credit(n: number, overrides: Partial<InventoryCredit> = {}): InventoryCredit {
  const address = `0x${String(n).padStart(40, '0')}`;
  return {
    organizationId: 'op-1',
    id: `exPost-${n}-${address}`,
    tokenId: String(n),
    tokenAddress: address,
    project: {
      id: `project-${n % 3}`,
      fullName: ['Kilimanjaro Reforestation', 'Mangrove Delta', 'São Paulo Solar'][n % 3]!,
      url: 'u',
      publicUrl: 'p',
      num: String(1000 + (n % 3)),
    },
    serialization: `RDR-KEN-1-${1000 + (n % 3)}-${n}-P-0-${2018 + (n % 4)}`,
    vintage: String(2018 + (n % 4)),
    supply: 100 + n,
    unit: 'tonne',
    amount: 0.5 + n,
    type: 'exPost',
    ...overrides,
  };
}

/** A version-3 cache holding inventories as the old sync wrote them (JSON.stringify of the answer). */
function version3Cache(file: string, answers: Record<string, unknown>): void {
  const db = new BetterSqlite3(file);
  migrate(db, [migration0001, migration0002, migration0003]);
  const put = db.prepare('INSERT INTO inventories (account, json, fetched_at) VALUES (?, ?, 1000)');
  for (const [account, answer] of Object.entries(answers)) put.run(account, typeof answer === 'string' ? answer : JSON.stringify(answer));
  db.prepare(
    "INSERT INTO sync_state (resource, last_success_at, last_attempt_at, last_full_at) VALUES ('inventories', 1000, 1000, 1000)",
  ).run();
  db.close();
}

describe('desk cache migration 0004 (inventory credits)', () => {
  it('creates the credit table, its sort indexes and one search table per account', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(db, [migration0001, migration0002, migration0003, migration0004]);
    const names = db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'index') ORDER BY name").pluck().all() as string[];
    expect(names).toEqual(
      expect.arrayContaining([
        'inventory_credits',
        'inventory_buffer_fts',
        'inventory_adjustment_fts',
        'inventory_organization_fts',
        'inventory_staging',
        ...['project', 'serialization', 'vintage', 'type', 'amount', 'supply', 'project_id'].map((s) => `inventory_credits_by_${s}`),
      ]),
    );
    const insert = db.prepare(
      `INSERT INTO inventory_credits (account, id, project_id, project_name, project_num, serialization, vintage, type, amount, supply, unit,
         token_id, token_address, row_hash, json) VALUES (?, 'c1', 'p', 'P', '1', 'S', '2020', 'exPost', 1, 1, 'tonne', '1', '0x', 'h', '{}')`,
    );
    insert.run('buffer');
    insert.run('adjustment'); // the same credit in two accounts
    expect(() => insert.run('buffer')).toThrow(/UNIQUE/);
    expect(() => insert.run('treasury')).toThrow(/CHECK/);
    db.close();
  });

  it('explodes version-3 inventory blobs into rows with their search entries, and rewrites each blob without its credits', () => {
    const d = makeDataDir('desk-cache-0004-');
    dirs.push(d);
    const file = join(d.dir, 'cache.sqlite');
    const buffer = [credit(1), credit(2), credit(3, { type: 'exAnte' }), credit(4), credit(5)];
    const organizationCredits = [credit(7), credit(8)];
    const summary = { exPost: 12.5, exAnte: 3, retired: 1 };
    version3Cache(file, {
      buffer: { summary, organization, credits: buffer },
      adjustment: { summary: { exPost: 0, exAnte: 0, retired: 0 }, organization, credits: [] },
      organization: { summary, organization, credits: organizationCredits },
    });

    const cache = openDeskCache(file);
    expect(cache.migration.from).toBe(3);
    expect(cache.migration.backupFile).toBeDefined();

    // Every credit is a row, with the JSON it had and the hash a sync computes for that JSON.
    const rows = cache.db.raw.prepare('SELECT account, id, json, row_hash FROM inventory_credits ORDER BY account, id').all() as {
      account: string;
      id: string;
      json: string;
      row_hash: string;
    }[];
    expect(rows.map((r) => [r.account, r.id])).toEqual(
      [...buffer.map((c) => ['buffer', c.id]), ...organizationCredits.map((c) => ['organization', c.id])].sort((a, b) =>
        `${a[0]} ${a[1]}`.localeCompare(`${b[0]} ${b[1]}`),
      ),
    );
    for (const row of rows) {
      expect(JSON.parse(row.json)).toEqual([...buffer, ...organizationCredits].find((c) => c.id === row.id));
      expect(row.row_hash).toBe(hashJson(JSON.stringify(JSON.parse(row.json))));
    }

    // The list reads the columns; search finds them.
    const list = cache.searchInventoryCredits({ account: 'buffer', sort: { field: 'amount', direction: 'asc' } });
    expect(list.total).toBe(5);
    expect(list.rows[0]).toEqual({
      id: buffer[0]!.id,
      projectId: 'project-1',
      projectName: 'Mangrove Delta',
      projectNum: '1001',
      serialization: buffer[0]!.serialization,
      vintage: '2019',
      type: 'exPost',
      amount: 1.5,
      supply: 101,
      unit: 'tonne',
      tokenId: '1',
      tokenAddress: buffer[0]!.tokenAddress,
    });
    expect(cache.searchInventoryCredits({ account: 'buffer', query: 'sao' }).rows.map((r) => r.id)).toEqual([buffer[1]!.id, buffer[4]!.id]);
    expect(cache.searchInventoryCredits({ account: 'buffer', query: 'kilim', filters: { type: 'exAnte' } }).rows.map((r) => r.id)).toEqual([
      buffer[2]!.id,
    ]);
    expect(cache.searchInventoryCredits({ account: 'organization', query: 'mangrove' }).rows.map((r) => r.id)).toEqual([
      organizationCredits[0]!.id,
    ]);

    // The blobs keep the summary and organization only.
    expect(cache.getInventory('buffer')).toEqual({ summary, organization, creditCount: 5, asOf: new Date(1000).toISOString() });
    expect(cache.getInventory('adjustment')?.creditCount).toBe(0);
    const blobs = cache.db.raw.prepare('SELECT json, answer_hash FROM inventories').all() as { json: string; answer_hash: string | null }[];
    for (const blob of blobs) {
      expect(Object.keys(JSON.parse(blob.json) as object).sort()).toEqual(['organization', 'summary']);
      // No answer hash yet: the next sync reads every account (and rewrites only changed credits).
      expect(blob.answer_hash).toBeNull();
    }
    cache.close();
  });

  it('keeps what it can of a damaged version-3 cache: a blob that is not JSON is dropped, a credit missing a column is left out', () => {
    const d = makeDataDir('desk-cache-0004-');
    dirs.push(d);
    const file = join(d.dir, 'cache.sqlite');
    const { amount: _amount, ...noAmount } = credit(2);
    version3Cache(file, {
      buffer: { summary: { exPost: 1, exAnte: 0, retired: 0 }, organization, credits: [credit(1), noAmount, 'not a credit', credit(1)] },
      adjustment: '{"summary": oops',
    });
    const cache = openDeskCache(file);
    expect(cache.searchInventoryCredits({ account: 'buffer' }).rows.map((r) => r.id)).toEqual([credit(1).id]);
    expect(cache.getInventory('buffer')?.creditCount).toBe(1);
    expect(cache.getInventory('adjustment')).toBeNull();
    cache.close();
  });
});
