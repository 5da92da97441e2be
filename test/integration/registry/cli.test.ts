// The operator CLI (npm run admin) as real child processes against a real data folder (the serve CLI:
// serve-cli.test.ts).
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { makeDataDir } from '@test/support/registry';
import { admin, balance, ok, refused, rowCounts } from '@test/support/admin-cli';

// Each command is a fresh process (tsx startup ~1-3 s on a busy machine), hence the generous timeout.
describe('the operator CLI', { timeout: 120_000 }, () => {
  const data = makeDataDir('cli-admin-');
  const dir = data.dir;
  afterAll(() => data.remove());

  let proponentId: string;
  let verifierId: string;
  let projectId: string;
  let creditId: string;

  it('lists its commands', () => {
    const result = admin(['help']);
    expect(result.status).toBe(0);
    for (const command of [
      'create-organization',
      'create-project',
      'set-project-status',
      'issue-credits',
      'deposit',
      'transfer',
      'install-app',
      'remove-installation',
    ]) {
      expect(result.stdout).toContain(command);
    }
  });

  it('creates organizations and a project from a JSON file, and moves it to validated', () => {
    proponentId = ok<{ id: string }>([
      'create-organization',
      '--data',
      dir,
      '--full-name',
      'Alpha Forests Ltd',
      '--country-code',
      'KE',
      '--verified',
    ]).id;
    verifierId = ok<{ id: string }>(
      ['create-organization', '--data', dir, '--json', '-'],
      JSON.stringify({ fullName: 'Valid Verifiers', type: 'validationVerificationBody', countryCode: 'GB', verified: true }),
    ).id;
    expect(proponentId).toMatch(/^[0-9a-f-]{36}$/);

    const projectFile = join(dir, 'project.json');
    writeFileSync(
      projectFile,
      JSON.stringify({
        fullName: 'Kilimanjaro Reforestation',
        description: 'Native forest restoration on degraded farmland.',
        startDate: '2020-01-01',
        creditingPeriodStartDate: '2020-06-01T00:00:00.000Z',
        countryCode: 'KE',
        sector: { id: 'forestry', title: 'Forestry and land use' },
        methodology: { id: 'RDR-AR-001', title: 'Afforestation, reforestation and revegetation' },
        type: { id: 'removal', title: 'Removal', description: 'Removes CO2' },
        organizationId: proponentId,
        validatorIds: [verifierId],
        location: { lat: -3.07, lng: 37.35 },
      }),
    );
    const project = ok<{ id: string; num: string; contractAddress: string }>(['create-project', '--data', dir, '--file', projectFile]);
    projectId = project.id;
    expect(project.num).toBe('1');
    expect(project.contractAddress).toMatch(/^0x[0-9a-f]{40}$/);

    expect(ok(['set-project-status', '--data', dir, '--project', projectId, '--status', 'submitted'])).toMatchObject({
      status: 'submitted',
      previousStatus: 'draft',
    });
    expect(ok(['set-project-status', '--data', dir, '--project', projectId, '--status', 'validated'])).toMatchObject({
      status: 'validated',
      previousStatus: 'submitted',
    });
    expect(rowCounts(dir).project_events).toBe(2);
  });

  it('issues credits and deposits part of them in the warehouse', () => {
    const issued = ok<{ creditId: string; serialization: string; toInventory: number; toBuffer: number }>([
      'issue-credits',
      '--data',
      dir,
      '--project',
      projectId,
      '--vintage',
      '2022',
      '--amount',
      '1000.5',
      '--buffer-basis-points',
      '1000',
      '--monitoring-period-start',
      '2022-01-01',
      '--monitoring-period-end',
      '2022-12-31',
      '--verification-body',
      verifierId,
    ]);
    creditId = issued.creditId;
    expect(creditId).toMatch(/^exPost-1-0x[0-9a-f]{40}$/);
    expect(issued.serialization.split('-').at(-1)).toBe('2022');
    expect(issued).toMatchObject({ toInventory: 900_450_000, toBuffer: 100_050_000 });

    expect(ok(['deposit', '--data', dir, '--organization', proponentId, '--credit', creditId, '--amount', '250.25'])).toHaveProperty(
      'movementId',
    );
    expect(balance(dir, 'warehouse', proponentId, creditId)).toBe(250_250_000);
    expect(balance(dir, 'inventory', proponentId, creditId)).toBe(900_450_000 - 250_250_000);
  });

  it('moves credits to the adjustment account and retires some', () => {
    ok(['transfer', '--data', dir, '--from', `inventory:${proponentId}`, '--to', 'adjustment', '--credit', creditId, '--amount', '10']);
    expect(balance(dir, 'adjustment', null, creditId)).toBe(10_000_000);
    const retired = ok<{ retirementId: string }>([
      'retire',
      '--data',
      dir,
      '--organization',
      proponentId,
      '--credit',
      creditId,
      '--amount',
      '1.5',
      '--beneficiary',
      'Alpha Forests Ltd',
      '--reason',
      'Offsetting travel',
    ]);
    expect(retired.retirementId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses bad input with exit 1 and a JSON error, changing nothing', () => {
    const before = rowCounts(dir);
    expect(
      refused([
        'issue-credits',
        '--data',
        dir,
        '--project',
        projectId,
        '--vintage',
        '22',
        '--amount',
        '0.0000001',
        '--monitoring-period-start',
        '2022-01-01',
        '--monitoring-period-end',
        '2022-12-31',
        '--verification-body',
        verifierId,
      ]),
    ).toMatch(/vintage: must be a four-digit year/);
    expect(
      refused([
        'issue-credits',
        '--data',
        dir,
        '--project',
        projectId,
        '--vintage',
        '2023',
        '--amount',
        '0.0000001',
        '--monitoring-period-start',
        '2023-01-01',
        '--monitoring-period-end',
        '2023-12-31',
        '--verification-body',
        verifierId,
      ]),
    ).toMatch(/finer than/);
    // more than the inventory holds: found out in the middle of the operation, rolled back
    expect(
      refused([
        'transfer',
        '--data',
        dir,
        '--from',
        `inventory:${proponentId}`,
        '--to',
        'registry',
        '--credit',
        creditId,
        '--amount',
        '1000000',
      ]),
    ).toMatch(/not enough/i);
    expect(refused(['deposit', '--data', dir, '--organization', proponentId, '--credit', creditId, '--amount', 'lots'])).toMatch(/amount/);
    expect(refused(['create-organization', '--data', dir, '--full-name', 'X', '--country-code', 'ZZ'])).toMatch(/countryCode/);
    expect(refused(['set-project-status', '--data', dir, '--project', projectId, '--status', 'draft'])).toMatch(/cannot become draft/);
    expect(
      refused([
        'install-app',
        '--data',
        dir,
        '--app',
        'nope',
        '--organization',
        proponentId,
        '--permissions',
        '{"organization_warehouse":"ADMIN"}',
      ]),
    ).toMatch(/organization_warehouse accepts VIEW or WRITE/);
    expect(refused(['deposit', '--data', dir, '--organisation', proponentId])).toMatch(/organisation/);
    expect(refused(['no-such-command', '--data', dir])).toMatch(/unknown command/);
    expect(refused(['verify-organization', '--organization', proponentId])).toMatch(/--data/);
    expect(refused(['verify-organization', '--data', join(dir, 'typo'), '--organization', proponentId])).toMatch(/does not exist/);
    expect(rowCounts(dir)).toEqual(before);
    expect(balance(dir, 'inventory', proponentId, creditId)).toBe(900_450_000 - 250_250_000 - 10_000_000 - 1_500_000);
  });

  it('registers an app from a PEM file and installs it with permissions', () => {
    const pem = join(dir, 'app.pub.pem');
    writeFileSync(pem, generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString());
    const app = ok<{ id: string; nameId: string }>(['create-app', '--data', dir, '--name', 'Acme Marketplace', '--public-key', pem]);
    expect(app.nameId).toBe('acme-marketplace');
    expect(ok(['grant-examiner', '--data', dir, '--app', app.id])).toEqual({ appId: app.id, examinerRead: true });
    const installation = ok<{ id: string }>([
      'install-app',
      '--data',
      dir,
      '--app',
      app.id,
      '--organization',
      proponentId,
      '--permissions',
      '{"organization_warehouse":"WRITE"}',
    ]);
    expect(ok(['suspend-installation', '--data', dir, '--installation', installation.id])).toEqual({
      id: installation.id,
      status: 'suspended',
    });
    expect(ok(['remove-installation', '--data', dir, '--installation', installation.id])).toEqual({ id: installation.id, removed: true });
    expect(rowCounts(dir).installations).toBe(0);
  });

  it('creates and disables operators; every command leaves one audit entry naming the CLI and the OS user', () => {
    const pem = join(dir, 'operator.pub.pem');
    writeFileSync(pem, generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString());
    const { operator } = ok<{ operator: { id: string; name: string; role: string; active: boolean } }>([
      'create-operator',
      '--data',
      dir,
      '--name',
      'Ada Admin',
      '--role',
      'administrator',
      '--public-key',
      pem,
    ]);
    expect(operator).toMatchObject({ name: 'Ada Admin', role: 'administrator', active: true });
    expect(refused(['create-operator', '--data', dir, '--name', 'Bad', '--role', 'owner', '--public-key', pem])).toMatch(/role/);
    // the last active administrator stays (409): another one first, then it can be disabled
    expect(refused(['disable-operator', '--data', dir, '--operator', operator.id])).toMatch(/last active administrator/);
    ok(['create-operator', '--data', dir, '--name', 'Grace Admin', '--role', 'administrator', '--public-key', pem]);
    expect(ok(['disable-operator', '--data', dir, '--operator', operator.id])).toMatchObject({ operator: { active: false } });

    const db = new BetterSqlite3(join(dir, 'registry.sqlite'), { readonly: true });
    try {
      const entries = db
        .prepare("SELECT actor, action, outcome, target_ids, detail FROM audit_log WHERE action LIKE 'operators.%' ORDER BY seq")
        .all() as { actor: string; action: string; outcome: string; target_ids: string; detail: string }[];
      expect(entries.map((e) => [e.action, e.outcome])).toEqual([
        ['operators.create', 'succeeded'],
        ['operators.create', 'refused'],
        ['operators.setActive', 'refused'],
        ['operators.create', 'succeeded'],
        ['operators.setActive', 'succeeded'],
      ]);
      for (const e of entries) expect(e.actor).toBe(`cli:${userInfo().username}`);
      expect(JSON.parse(entries[0]!.target_ids)).toContain(operator.id);
      // the public key is not a secret, but no key material enters the log
      expect(entries[0]!.detail).not.toContain('BEGIN PUBLIC KEY');
      // every earlier command of this suite left its entry too; the refused ones as refused
      const outcomes = db.prepare('SELECT outcome, COUNT(*) AS n FROM audit_log GROUP BY outcome').all() as {
        outcome: string;
        n: number;
      }[];
      expect(outcomes.find((o) => o.outcome === 'refused')?.n).toBeGreaterThan(1);
      expect(() => db.prepare('DELETE FROM audit_log').run()).toThrow();
    } finally {
      db.close();
    }
  });
});
