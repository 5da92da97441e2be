// The demo seed on real SQLite files: deterministic, consistent with its own ledger, and the
// credentials file it writes really opens the doors it claims to.
import { createPublicKey } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RegistryError } from '@registry/errors';
import { openRegistry } from '@registry/open';
import { seedDemo } from '@registry/seed';
import { makeDataDir } from '@test/support/registry';
import { count, credentialsFileSchema, digestOfTables, seedInNewFolder, type Seeded } from './demo-seed-fixtures';

let first: Seeded;
let second: Seeded;

beforeAll(() => {
  first = seedInNewFolder();
  second = seedInNewFolder();
});
afterAll(() => {
  for (const s of [first, second]) {
    s?.registry.close();
    s?.dir.remove();
  }
});

describe('the demo seed', () => {
  it('is deterministic: two seeds in two folders hold identical rows', () => {
    const a = digestOfTables(first.registry);
    const b = digestOfTables(second.registry);
    expect(a.rows).toBeGreaterThan(5_000);
    expect(b).toEqual(a);
    // ...and the digest does see the data: another seed text gives another registry
    const other = seedInNewFolder({ seed: 'another-demo' });
    try {
      expect(digestOfTables(other.registry).digest).not.toBe(a.digest);
    } finally {
      other.registry.close();
      other.dir.remove();
    }
  });

  it('leaves every balance equal to the sum of its ledger movements', () => {
    const r = first.registry;
    const mismatches = r.db.raw
      .prepare(
        `WITH ledger AS (
           SELECT account_id, credit_id, SUM(delta) AS amount FROM (
             SELECT to_account AS account_id, credit_id, amount AS delta FROM movements WHERE to_account IS NOT NULL
             UNION ALL
             SELECT from_account, credit_id, -amount FROM movements WHERE from_account IS NOT NULL
           ) GROUP BY account_id, credit_id
         )
         SELECT l.account_id, l.credit_id, l.amount AS ledger, b.amount AS balance
         FROM ledger l LEFT JOIN balances b ON b.account_id = l.account_id AND b.credit_id = l.credit_id
         WHERE b.amount IS NOT l.amount
         UNION ALL
         SELECT b.account_id, b.credit_id, NULL, b.amount FROM balances b
         WHERE NOT EXISTS (SELECT 1 FROM movements m WHERE m.credit_id = b.credit_id AND (m.to_account = b.account_id OR m.from_account = b.account_id))`,
      )
      .all();
    expect(mismatches).toEqual([]);
    expect(count(r, 'SELECT COUNT(*) AS n FROM balances WHERE amount > 0')).toBeGreaterThan(500);
  });

  it('accounts for every credit issued: held + retired + cancelled, and retirements match their movements', () => {
    const rows = first.registry.db.raw
      .prepare(
        `SELECT c.id,
           (SELECT COALESCE(SUM(amount), 0) FROM movements WHERE credit_id = c.id AND kind = 'issue') AS issued,
           (SELECT COALESCE(SUM(amount), 0) FROM credit_events WHERE credit_id = c.id) AS issuance_events,
           (SELECT COALESCE(SUM(amount), 0) FROM balances WHERE credit_id = c.id) AS held,
           (SELECT COALESCE(SUM(amount), 0) FROM movements WHERE credit_id = c.id AND kind = 'retire') AS retired,
           (SELECT COALESCE(SUM(amount), 0) FROM retirements WHERE credit_id = c.id) AS retirement_rows,
           (SELECT COALESCE(SUM(amount), 0) FROM movements WHERE credit_id = c.id AND kind = 'cancel') AS cancelled
         FROM credits c`,
      )
      .all() as {
      id: string;
      issued: number;
      issuance_events: number;
      held: number;
      retired: number;
      retirement_rows: number;
      cancelled: number;
    }[];
    expect(rows.length).toBeGreaterThan(100);
    for (const row of rows) {
      expect(row.issued, row.id).toBeGreaterThan(0);
      expect(row.held + row.retired + row.cancelled, row.id).toBe(row.issued);
      expect(row.issuance_events, row.id).toBe(row.issued);
      expect(row.retirement_rows, row.id).toBe(row.retired);
    }
  });

  it('has scale-1 contents in the expected ranges', () => {
    const r = first.registry;
    expect(first.result.counts.organizations).toBe(31);
    expect(count(r, 'SELECT COUNT(*) AS n FROM organizations WHERE is_registry = 1 AND is_verified = 1')).toBe(1);
    expect(count(r, "SELECT COUNT(*) AS n FROM organizations WHERE type = 'projectProponent' AND is_verified = 0")).toBeGreaterThan(0);
    expect(count(r, 'SELECT COUNT(*) AS n FROM organizations WHERE is_public = 0')).toBeGreaterThan(0);
    expect(count(r, 'SELECT COUNT(DISTINCT country_code) AS n FROM projects')).toBeGreaterThanOrEqual(10);
    expect(count(r, 'SELECT COUNT(DISTINCT sector_id) AS n FROM projects')).toBeGreaterThanOrEqual(5);
    expect(count(r, "SELECT COUNT(DISTINCT type_id) AS n FROM projects WHERE type_id IN ('removal', 'avoidance')")).toBe(2);

    expect(first.result.counts.projects).toBe(100);
    const statuses = Object.fromEntries(
      (r.db.raw.prepare('SELECT status, COUNT(*) AS n FROM projects GROUP BY status').all() as { status: string; n: number }[]).map((s) => [
        s.status,
        s.n,
      ]),
    );
    for (const status of ['draft', 'submitted', 'validated', 'registered', 'rejected'])
      expect(statuses[status], status).toBeGreaterThanOrEqual(2);
    expect(statuses.registered).toBeGreaterThan(40);
    // every status other than draft was reached through status changes, each leaving an event
    expect(
      count(
        r,
        "SELECT COUNT(*) AS n FROM projects p WHERE status <> 'draft' AND NOT EXISTS (SELECT 1 FROM project_events e WHERE e.project_id = p.id AND e.project_status = p.status)",
      ),
    ).toBe(0);
    expect(count(r, 'SELECT COUNT(*) AS n FROM project_documents WHERE is_kml = 1')).toBeGreaterThan(5);
    expect(count(r, 'SELECT COUNT(*) AS n FROM project_benefits')).toBeGreaterThan(100);

    const vintages = r.db.raw.prepare('SELECT MIN(vintage) AS lo, MAX(vintage) AS hi, COUNT(DISTINCT vintage) AS n FROM credits').get() as {
      lo: string;
      hi: string;
      n: number;
    };
    expect(vintages).toMatchObject({ lo: '2016', hi: '2025', n: 10 });
    expect(count(r, "SELECT COUNT(*) AS n FROM credits WHERE type = 'exAnte'")).toBeGreaterThan(0);
    expect(
      count(
        r,
        "SELECT COUNT(*) AS n FROM credits c WHERE type = 'exAnte' AND EXISTS (SELECT 1 FROM movements m WHERE m.credit_id = c.id AND m.kind = 'cancel')",
      ),
    ).toBeGreaterThan(0);
    expect(
      count(r, "SELECT COUNT(*) AS n FROM balances b JOIN accounts a ON a.id = b.account_id WHERE a.kind = 'buffer' AND b.amount > 0"),
    ).toBeGreaterThan(100);
    for (const kind of ['adjustment', 'registry']) {
      expect(
        count(r, 'SELECT COUNT(*) AS n FROM balances b JOIN accounts a ON a.id = b.account_id WHERE a.kind = ? AND b.amount > 0', kind),
        kind,
      ).toBeGreaterThan(0);
    }

    expect(first.result.counts.retirements).toBeGreaterThanOrEqual(900);
    expect(first.result.counts.retirements).toBeLessThanOrEqual(1_100);
    expect(
      count(r, 'SELECT COUNT(*) AS n FROM retirements r JOIN organizations o ON o.id = r.organization_id WHERE o.is_verified = 1'),
    ).toBeGreaterThan(400);
    // retirements by organizations without business verification (shown redacted)
    expect(
      count(r, 'SELECT COUNT(*) AS n FROM retirements r JOIN organizations o ON o.id = r.organization_id WHERE o.is_verified = 0'),
    ).toBeGreaterThan(10);
    expect(
      count(r, "SELECT COUNT(*) AS n FROM retirements WHERE source = 'onchain' AND beneficiary IS NULL AND finalized_at IS NULL"),
    ).toBeGreaterThan(50);
    // fractional retirements, exact to the gram
    expect(count(r, 'SELECT COUNT(*) AS n FROM retirements WHERE amount % 1000000 <> 0')).toBeGreaterThan(100);
    expect(
      count(
        r,
        "SELECT COUNT(DISTINCT a.organization_id) AS n FROM balances b JOIN accounts a ON a.id = b.account_id WHERE a.kind = 'warehouse' AND b.amount > 0",
      ),
    ).toBeGreaterThanOrEqual(3);
    // the story happened in the past: nothing dated after the seed's end
    expect(count(r, 'SELECT COUNT(*) AS n FROM movements WHERE created_at > ?', Date.UTC(2025, 9, 1))).toBe(0);
  });

  it('writes demo-credentials.json in exactly the documented shape, readable by its owner only', () => {
    const file = join(first.dir.dir, 'demo-credentials.json');
    expect(first.result.credentialsFile).toBe(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const credentials = credentialsFileSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
    expect(credentials.app.name).toContain('Demo');
    const app = first.registry.db.raw
      .prepare('SELECT name, public_key_pem, examiner_read FROM apps WHERE id = ?')
      .get(credentials.app.id) as { name: string; public_key_pem: string; examiner_read: number } | undefined;
    expect(app).toMatchObject({ name: credentials.app.name, examiner_read: 1 });
    // the private key in the file belongs to the public key the registry verifies with
    const publicFromPrivate = createPublicKey(credentials.app.privateKeyPem).export({ type: 'spki', format: 'pem' }).toString();
    expect(publicFromPrivate).toBe(app!.public_key_pem);
    expect(credentials.app.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
  });

  it('creates one operator per role, their keys in demo-credentials.json; the audit log starts with the seed', () => {
    const r = first.registry;
    const { operators } = first.result.credentials;
    expect(operators.map((o) => o.role)).toEqual(['viewer', 'manager', 'administrator']);
    for (const o of operators) {
      const row = r.db.raw.prepare('SELECT name, role, public_key_pem, active FROM operators WHERE id = ?').get(o.id) as
        { name: string; role: string; public_key_pem: string; active: number } | undefined;
      expect(row).toMatchObject({ name: o.name, role: o.role, active: 1 });
      expect(createPublicKey(o.privateKeyPem).export({ type: 'spki', format: 'pem' }).toString()).toBe(row!.public_key_pem);
    }
    const entries = r.db.raw.prepare('SELECT actor, action, outcome, target_ids, detail FROM audit_log ORDER BY seq').all() as {
      actor: string;
      action: string;
      outcome: string;
      target_ids: string;
      detail: string;
    }[];
    expect(entries.slice(0, 3).map((e) => e.action)).toEqual(['operators.create', 'operators.create', 'operators.create']);
    expect(entries.map((e) => e.action)).toContain('credits.issue');
    for (const e of entries) {
      expect(e).toMatchObject({ actor: 'seed:demo', outcome: 'succeeded' });
      expect(e.detail).not.toContain('PRIVATE KEY');
    }
  });

  it('installs the demo app on two organizations, the first with warehouse credits to sell', () => {
    const r = first.registry;
    const { installations } = first.result.credentials;
    expect(installations.length).toBeGreaterThanOrEqual(2);
    expect(new Set(installations.map((i) => i.organizationId)).size).toBe(installations.length);
    expect(installations[0]!.permissions).toEqual({ organization_info: 'VIEW', organization_warehouse: 'WRITE' });
    for (const installation of installations) {
      const row = r.db.raw.prepare('SELECT organization_id, permissions, status FROM installations WHERE id = ?').get(installation.id) as
        { organization_id: string; permissions: string; status: string } | undefined;
      expect(row).toEqual({
        organization_id: installation.organizationId,
        permissions: JSON.stringify(installation.permissions),
        status: 'active',
      });
    }
    const stock = count(
      r,
      "SELECT COALESCE(SUM(b.amount), 0) AS n FROM balances b JOIN accounts a ON a.id = b.account_id WHERE a.kind = 'warehouse' AND a.organization_id = ?",
      installations[0]!.organizationId,
    );
    expect(stock).toBeGreaterThan(1_000_000);
    expect(count(r, 'SELECT is_verified AS n FROM organizations WHERE id = ?', installations[0]!.organizationId)).toBe(1);
  });

  it("lists for each wallet exactly its unclaimed on-chain retirements, and the wallet's key matches its address", () => {
    const r = first.registry;
    const { wallets } = first.result.credentials;
    expect(wallets.length).toBeGreaterThanOrEqual(3);
    for (const wallet of wallets) {
      expect(new Wallet(wallet.privateKey).address).toBe(wallet.address);
      expect(wallet.retirements.length).toBeGreaterThanOrEqual(1);
      const stored = r.db.raw
        .prepare(
          'SELECT id, project_address, token_id FROM retirements WHERE owner_wallet = ? AND source = ? AND beneficiary IS NULL AND finalized_at IS NULL ORDER BY id',
        )
        .all(wallet.address.toLowerCase(), 'onchain') as { id: string; project_address: string; token_id: string }[];
      const listed = [...wallet.retirements].sort((a, b) => a.id.localeCompare(b.id));
      expect(listed.map((x) => ({ id: x.id, project_address: x.projectAddress, token_id: x.tokenId }))).toEqual(stored);
      for (const retirement of wallet.retirements) {
        // the project address and token id are those of the credit that was retired
        const credit = r.db.raw
          .prepare('SELECT c.token_address, c.token_id FROM retirements t JOIN credits c ON c.id = t.credit_id WHERE t.id = ?')
          .get(retirement.id) as { token_address: string; token_id: number };
        expect({ projectAddress: credit.token_address, tokenId: String(credit.token_id) }).toEqual({
          projectAddress: retirement.projectAddress,
          tokenId: retirement.tokenId,
        });
      }
    }
  });

  it('refuses a registry that is not empty, and changes nothing', () => {
    const before = digestOfTables(second.registry);
    let caught: unknown;
    try {
      seedDemo(second.registry, { scale: 1 });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RegistryError);
    expect((caught as RegistryError).kind).toBe('conflict');
    expect((caught as Error).message).toMatch(/only an empty registry/);
    expect(digestOfTables(second.registry)).toEqual(before);
  });

  it('refuses bad options with a clear error', () => {
    const dir = makeDataDir('seed-test-');
    const registry = openRegistry({ dataDir: dir.dir });
    try {
      expect(() => seedDemo(registry, { scale: 0 })).toThrow(/scale/);
      expect(() => seedDemo(registry, { scale: 1.5 })).toThrow(/whole number/);
      expect(count(registry, 'SELECT COUNT(*) AS n FROM organizations')).toBe(0);
    } finally {
      registry.close();
      dir.remove();
    }
  });
});
