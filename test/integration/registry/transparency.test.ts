// The transparency log over HTTP against a real server (SQLite here; the `postgres` project runs it
// on PostgreSQL): the public endpoints answer without a token, cacheable, with proofs that verify,
// and bad parameters are 400s naming the parameter. Then each way the history can be falsified is
// caught by the database check (`admin verify-log`) and by the standalone verifier (`npm run verify`,
// public endpoints only): a rewritten row, a forked checkpoint, a truncated log, a wrong key.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { audited } from '@registry/audit';
import { renderCertificatePdf } from '@registry/certificates';
import { certificateInputFor } from '@registry/retirements/certificate';
import * as ops from '@registry/operations';
import type { RegistryContext } from '@registry/context';
import { verifyEd25519 } from '@platform/log-crypto';
import { logKey, rawPublicKey } from '@registry/transparency/keys';
import { verifyRegistryLog } from '@registry/transparency/remote-verify';
import { logSize } from '@registry/transparency/tree';
import { verifyLogDatabase } from '@registry/transparency/verify-database';
import { toBase64 } from '@shared/transparency/bytes';
import { checkpointBody, formatSignedNote, formatVerifierKey } from '@shared/transparency/note';
import {
  fetchCheckpoint,
  fetchLeaves,
  fetchVerifierKey,
  replayLog,
  verifyExtends,
  verifyIncluded,
  type Get,
} from '@shared/transparency/verifier';
import { builtEntry } from '@scripts/build-web-desk';
import { makeDataDir, ON_POSTGRES, openSecondConnection, startTestRegistry, type TestRegistry } from '@test/support/registry';
import { stockWarehouse } from '@test/support/stocked-warehouse';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const running: TestRegistry[] = [];
const cleanups: (() => void)[] = [];
afterEach(async () => {
  for (const t of running.splice(0)) await t.close();
  cleanups.splice(0).forEach((c) => c());
});

function stock(ctx: RegistryContext, name: string): string[] {
  const vvb = ops.createOrganization(ctx, {
    fullName: `${name} VVB`,
    type: 'validationVerificationBody',
    countryCode: 'GB',
    verified: true,
  });
  const owner = audited(ctx, { operatorId: null, actor: 'cli:test', action: 'organizations.create', input: { name } }, () =>
    ops.createOrganization(ctx, { fullName: name, countryCode: 'KE', verified: true }),
  );
  return stockWarehouse(ctx, {
    organizationId: owner.id,
    verificationBodyId: vvb.id,
    projectName: name,
    vintages: ['2021'],
    issue: 100,
    deposit: 40,
  });
}

async function started(): Promise<{ t: TestRegistry; get: Get }> {
  const t = await startTestRegistry({ setup: (r) => void stock(r, 'First') });
  running.push(t);
  const get: Get = async (path) => {
    const res = await fetch(`${t.url}${path}`);
    return { status: res.status, text: await res.text() };
  };
  return { t, get };
}

/** The database check, as `admin verify-log` runs it: its own connection, beside the server. */
function databaseCheck(t: TestRegistry): string[] {
  const second = openSecondConnection(t, { inspecting: true });
  try {
    return verifyLogDatabase(second).problems;
  } finally {
    second.close();
  }
}

const newCheckpoint = async (t: TestRegistry) => {
  t.clock.advance(5_000);
  return (await t.call('/transparency/v1/checkpoint')).text();
};

describe('the transparency endpoints', () => {
  it('serve a signed checkpoint, leaves and proofs that verify, publicly and cacheable', async () => {
    const { t, get } = await started();
    const keyRes = await fetch(`${t.url}/transparency/v1/key`);
    expect(keyRes.status).toBe(200);
    expect(keyRes.headers.get('content-type')).toMatch(/^text\/plain/);
    const key = await fetchVerifierKey(get);
    expect(key.text).toBe(logKey(t.registry).verifierKey);
    const first = await fetchCheckpoint(get, key, verifyEd25519);
    const size = logSize(t.registry);
    expect(first.size).toBe(size);
    expect(first.time).toBeLessThanOrEqual(t.clock.now());
    await replayLog(get, first);
    const leaves: { index: number; data: string }[] = [];
    await fetchLeaves(get, 0, first.size, (l) => leaves.push(l));
    for (const leaf of leaves) await verifyIncluded(get, leaf.index, Buffer.from(leaf.data, 'base64'), first);

    // a page holds at most what was asked, never past the end; proofs are immutable answers
    const page = await t.call(`/transparency/v1/leaves?start=1&end=${first.size + 50}`);
    expect(((await page.json()) as { leaves: unknown[] }).leaves).toHaveLength(first.size - 1);
    const proof = await t.call(`/transparency/v1/proof/inclusion?index=0&size=${first.size}`);
    expect(proof.headers.get('cache-control')).toContain('immutable');

    // the log grows with each write; the next checkpoint extends the first
    stock(t.registry, 'Second');
    expect((await t.call('/transparency/v1/checkpoint')).status).toBe(200);
    await newCheckpoint(t);
    const second = await fetchCheckpoint(get, key, verifyEd25519);
    expect(second.size).toBeGreaterThan(first.size);
    await verifyExtends(get, first, second);

    // a record's leaf by its id: the last movement is the second log's last movement leaf
    const movement = t.registry.db.prepare('SELECT MAX(id) AS id FROM movements').get() as { id: number };
    const found = (await (await t.call(`/transparency/v1/lookup?kind=movement&id=${movement.id}`)).json()) as { index: number };
    await fetchLeaves(get, found.index, found.index + 1, (l) => expect(l).toMatchObject({ kind: 'movement', id: String(movement.id) }));
    expect((await t.call('/transparency/v1/lookup?kind=audit&id=nope')).status).toBe(404);
  });

  it('answers 400 naming the parameter', async () => {
    const { t } = await started();
    const cases: [string, string][] = [
      ['/proof/inclusion?index=x&size=1', 'index'],
      ['/proof/inclusion?index=0', 'size'],
      ['/proof/inclusion?index=0&size=99999999', 'size'],
      ['/proof/inclusion?index=2&size=2', 'index'],
      ['/proof/consistency?from=-1&to=2', 'from'],
      ['/proof/consistency?from=3&to=2', 'from'],
      ['/leaves?end=2', 'start'],
      ['/leaves?start=2&end=2', 'end'],
      ['/leaves?start=01&end=2', 'start'],
      ['/lookup?kind=project&id=1', 'kind'],
      ['/lookup?kind=audit', 'id'],
    ];
    for (const [path, parameter] of cases) {
      const res = await t.call(`/transparency/v1${path}`);
      expect(res.status, path).toBe(400);
      expect(JSON.stringify(await res.json()), path).toContain(`${parameter}:`);
    }
  });
});

describe('a retirement certificate', () => {
  it('names its leaf and the checkpoint that includes it, which the public proofs confirm', async () => {
    const { t, get } = await started();
    const owner = t.registry.db.prepare(`SELECT id FROM organizations WHERE full_name = 'First'`).get() as { id: string };
    const credit = t.registry.db.prepare('SELECT id FROM credits LIMIT 1').get() as { id: string };
    const { retirementId } = ops.retireFromInventory(t.registry, {
      organizationId: owner.id,
      creditId: credit.id,
      amount: 5,
      beneficiary: 'Ada',
      reason: 'Offset',
    });
    const dir = makeDataDir('certificate-proof-');
    cleanups.push(dir.remove);
    const file = join(dir.dir, 'certificate.pdf');
    writeFileSync(file, await renderCertificatePdf(certificateInputFor(t.registry, retirementId)));
    const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    // (each expectation names the certificate's text, so that a failure shows what it said)
    const named = /entry (\d+), included in the checkpoint of (\d+) entries/.exec(text);
    expect(named, text).not.toBeNull();
    const [, index, size] = named!;
    const lookup = (await (await t.call(`/transparency/v1/lookup?kind=retirement&id=${retirementId}`)).json()) as { index: number };
    expect(Number(index), text).toBe(lookup.index);
    // the checkpoint it names is signed, and the retirement's leaf is in it
    const key = await fetchVerifierKey(get);
    const checkpoint = await fetchCheckpoint(get, key, verifyEd25519);
    expect(checkpoint.size, text).toBe(Number(size));
    expect(text).toContain(checkpoint.root);
    let data = '';
    await fetchLeaves(get, lookup.index, lookup.index + 1, (l) => (data = l.data));
    expect(JSON.parse(Buffer.from(data, 'base64').toString('utf8'))).toMatchObject({
      kind: 'movement',
      row: { kind: 'retire', reference: retirementId },
    });
    await verifyIncluded(get, lookup.index, Buffer.from(data, 'base64'), checkpoint);
  });
});

describe('a falsified history is caught', () => {
  const tamperMovement = (t: TestRegistry) => {
    const raw = t.registry.db;
    if (ON_POSTGRES) {
      raw.transaction(() => {
        raw.prepare('ALTER TABLE movements DISABLE TRIGGER USER').run();
        raw.prepare(`UPDATE movements SET amount = amount + 1 WHERE id = (SELECT MIN(id) FROM movements WHERE kind = 'deposit')`).run();
        raw.prepare('ALTER TABLE movements ENABLE TRIGGER USER').run();
      });
    } else {
      // whoever holds the file can drop the guard against INSERT OR REPLACE (migration 0012) first
      raw.prepare('DROP TRIGGER movements_append_only_replace').run();
      raw
        .prepare(
          `INSERT OR REPLACE INTO movements (id, credit_id, kind, from_account, to_account, amount, created_at, reference)
         SELECT id, credit_id, kind, from_account, to_account, amount + 1, created_at, reference FROM movements WHERE kind = 'deposit'`,
        )
        .run();
    }
  };
  const dropLogGuards = (t: TestRegistry, table: string) => {
    const db = t.registry.db;
    if (ON_POSTGRES) db.prepare(`ALTER TABLE ${table} DISABLE TRIGGER USER`).run();
    else
      for (const { name } of db.prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?`).all(table) as {
        name: string;
      }[])
        db.prepare(`DROP TRIGGER ${name}`).run();
  };
  const stateFile = () => {
    const dir = makeDataDir('verify-state-');
    cleanups.push(dir.remove);
    return join(dir.dir, 'state.json');
  };

  it('a rewritten row: the database check and the standalone verifier', async () => {
    const { t } = await started();
    const state = stateFile();
    await verifyRegistryLog({ url: t.url, state });
    expect(databaseCheck(t)).toEqual([]);
    tamperMovement(t);
    expect(databaseCheck(t).join('\n')).toMatch(/was rewritten after it was logged/);
    await expect(verifyRegistryLog({ url: t.url, state })).rejects.toMatchObject({ kind: 'replay' });
  });

  it('a forked checkpoint: two roots signed at one size', async () => {
    const { t } = await started();
    const state = stateFile();
    const kept = await verifyRegistryLog({ url: t.url, state });
    // the registry's own key signs another root at the size the verifier kept
    const key = logKey(t.registry);
    const body = checkpointBody({ origin: key.name, size: kept.entries as number, root: new Uint8Array(32).fill(7), extensions: [] });
    const forged = formatSignedNote(body, key.name, key.publicKey, key.sign(Buffer.from(body)));
    dropLogGuards(t, 'tlog_checkpoints');
    t.registry.db
      .prepare('UPDATE tlog_checkpoints SET note = ?, root = ? WHERE size = ?')
      .run(forged, toBase64(new Uint8Array(32).fill(7)), kept.entries);
    expect(databaseCheck(t).join('\n')).toMatch(/rows give another root than it signed/);
    await expect(verifyRegistryLog({ url: t.url, state })).rejects.toMatchObject({ kind: 'fork' });
  });

  it('a truncated log', async () => {
    const { t } = await started();
    const state = stateFile();
    const kept = await verifyRegistryLog({ url: t.url, state });
    const size = kept.entries as number;
    // PostgreSQL's head row says the log's size; SQLite's size is its largest leaf (migration 0018)
    for (const table of ['tlog_leaves', 'tlog_checkpoints', ...(ON_POSTGRES ? ['tlog_head'] : [])]) dropLogGuards(t, table);
    t.registry.db.transaction(() => {
      t.registry.db.prepare('DELETE FROM tlog_leaves WHERE idx >= ?').run(size - 2);
      t.registry.db.prepare('DELETE FROM tlog_checkpoints WHERE size > ?').run(size - 2);
      if (ON_POSTGRES) t.registry.db.prepare('UPDATE tlog_head SET size = ?').run(size - 2);
    });
    expect(logSize(t.registry)).toBe(size - 2);
    await newCheckpoint(t);
    expect(databaseCheck(t).join('\n')).toMatch(/has no leaf in the log/);
    await expect(verifyRegistryLog({ url: t.url, state })).rejects.toMatchObject({ kind: 'truncated' });
  });

  it('a wrong key', async () => {
    const { t } = await started();
    const other = rawPublicKey(generateKeyPairSync('ed25519').publicKey);
    const wrong = formatVerifierKey(logKey(t.registry).name, other);
    await expect(verifyRegistryLog({ url: t.url, key: wrong })).rejects.toMatchObject({ kind: 'signature' });
    // the key replaced in the database: every checkpoint signed before no longer verifies. One is
    // signed here: the server's first one comes from its timer, whose reads on PostgreSQL go over the
    // read pool and may not have run yet.
    await newCheckpoint(t);
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    dropLogGuards(t, 'tlog_key');
    t.registry.db
      .prepare('UPDATE tlog_key SET public_key = ?, private_key = ?')
      .run(Buffer.from(rawPublicKey(publicKey)).toString('base64'), privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'));
    expect(databaseCheck(t).join('\n')).toMatch(/no signature by the key|does not verify with the pinned key/);
  });

  it.skipIf(ON_POSTGRES)('by the commands an auditor runs: admin verify-log and npm run verify', async () => {
    const { t } = await started();
    const admin = (args: string[]) =>
      spawnSync(process.execPath, [builtEntry('admin'), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
    // asynchronous: the server it asks runs in this process
    const verify = (args: string[]) =>
      new Promise<{ status: number; stderr: string }>((resolve) => {
        execFile(process.execPath, [builtEntry('verify'), ...args], { cwd: ROOT, timeout: 30_000 }, (error, _stdout, stderr) =>
          resolve({ status: error ? Number(error.code ?? 1) : 0, stderr }),
        );
      });
    const state = stateFile();
    const fine = [admin(['verify-log', '--data', t.dir]), await verify([t.url, '--state', state])];
    expect(fine.map((r) => [r.status, r.stderr])).toEqual([
      [0, ''],
      [0, ''],
    ]);
    tamperMovement(t);
    const adminRun = admin(['verify-log', '--data', t.dir]);
    expect(adminRun.status).toBe(1);
    expect(adminRun.stderr).toMatch(/was rewritten after it was logged/);
    const verifyRun = await verify([t.url, '--state', state]);
    expect(verifyRun.status).toBe(1);
    expect(verifyRun.stderr).toMatch(/replay: the \d+ entries served do not give the signed root/);
  });
});
