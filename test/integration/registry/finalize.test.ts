// POST /retirements/finalize over real HTTP, signed by real ethers wallets (EIP-191 personal
// messages), against on-chain retirements recorded with the operator operation.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet, type HDNodeWallet } from 'ethers';
import * as ops from '@registry/operations';
import { finalizeMessage } from '@registry/retirements/finalize';
import { callEndpoint, fails, ok, registrySnapshot } from '@test/support/warehouse';
import { buildFixture, type Fixture } from '@test/support/fixture';
import { appToken, createTestApp, startTestRegistry, type TestRegistry } from '@test/support/registry';

let t: TestRegistry;
let f: Fixture;
let token: string;

beforeAll(async () => {
  t = await startTestRegistry({ setup: (r) => void (f = buildFixture(r)) });
  token = await appToken(t, createTestApp(t.registry));
});
afterAll(() => t.close());

/** A wallet that retired `amount` t of the fixture credit on chain. */
function walletWithRetirement(amount = 1, createdAt?: string) {
  const wallet = Wallet.createRandom();
  const recorded = ops.recordOnchainRetirement(t.registry, {
    walletAddress: wallet.address,
    creditId: f.creditId,
    amount,
    fromOrganizationId: f.orgA,
    ...(createdAt ? { createdAt } : {}),
  });
  return { wallet, ...recorded };
}

/** One more on-chain retirement of the fixture credit by `wallet`. */
function walletRetirement(wallet: Wallet | HDNodeWallet, createdAt: string) {
  return ops.recordOnchainRetirement(t.registry, {
    walletAddress: wallet.address,
    creditId: f.creditId,
    amount: 1,
    fromOrganizationId: f.orgA,
    createdAt,
  });
}

async function signedBody(
  wallet: { signMessage(m: string): Promise<string> },
  signer: string,
  data: Partial<Record<string, string>> & { projectAddress: string; tokenId: string },
) {
  const signedData = { beneficiary: 'Ada Lovelace', comment: 'Offsetting 2024 travel', reason: 'Voluntary offset', ...data };
  return { signer, signature: await wallet.signMessage(finalizeMessage(signedData)), signedData };
}

const finalize = (body: unknown) => callEndpoint(t, 'finalizeRetirement', { token, body });

function stored(id: string) {
  return t.registry.db.raw.prepare('SELECT beneficiary, reason, comment, finalized_at FROM retirements WHERE id = ?').get(id);
}

describe('finalize', () => {
  it('claims the signer’s on-chain retirement and answers it in full; a second finalize is 409', async () => {
    const { wallet, retirementId, projectAddress, tokenId } = walletWithRetirement(1.5);
    expect(stored(retirementId)).toEqual({ beneficiary: null, reason: null, comment: null, finalized_at: null });
    // a checksummed signer and an upper-case project address still match (addresses compare case-insensitively)
    const body = await signedBody(wallet, wallet.address, { projectAddress: projectAddress.toUpperCase().replace('0X', '0x'), tokenId });
    const retirement = await ok('finalizeRetirement', await finalize(body));
    expect(retirement).toMatchObject({
      id: retirementId,
      isClaimed: true,
      beneficiary: 'Ada Lovelace',
      reason: 'Voluntary offset',
      comment: 'Offsetting 2024 travel',
      amount: 1.5,
      serialization: f.serialization,
      organizationId: wallet.address.toLowerCase(),
    });
    expect(stored(retirementId)).toMatchObject({ beneficiary: 'Ada Lovelace', finalized_at: expect.any(Number) });
    const before = registrySnapshot(t.registry);
    await fails(await finalize(body), 409);
    expect(registrySnapshot(t.registry)).toBe(before);
  });

  it('verifies the signature over the exact strings signed, spaces included, and stores them as signed', async () => {
    const { wallet, retirementId, projectAddress, tokenId } = walletWithRetirement(0.25);
    const body = await signedBody(wallet, wallet.address, { beneficiary: ' Ada  Lovelace ', comment: ' ', projectAddress, tokenId });
    const retirement = await ok('finalizeRetirement', await finalize(body));
    expect(retirement).toMatchObject({ id: retirementId, beneficiary: ' Ada  Lovelace ', comment: ' ' });
    expect(stored(retirementId)).toMatchObject({ beneficiary: ' Ada  Lovelace ', comment: ' ' });
  });

  // compatibility.md: signatures are accepted with or without the 0x prefix (some client libraries
  // print them bare), in either case of hex digits
  it('accepts a signature without its 0x prefix, and in upper-case hex', async () => {
    const bare = walletWithRetirement(0.5);
    const body = await signedBody(bare.wallet, bare.wallet.address, { projectAddress: bare.projectAddress, tokenId: bare.tokenId });
    expect(body.signature.startsWith('0x')).toBe(true);
    const retirement = await ok('finalizeRetirement', await finalize({ ...body, signature: body.signature.slice(2) }));
    expect(retirement).toMatchObject({ id: bare.retirementId, isClaimed: true });

    const upper = walletWithRetirement(0.5);
    const upperBody = await signedBody(upper.wallet, upper.wallet.address, {
      projectAddress: upper.projectAddress,
      tokenId: upper.tokenId,
    });
    const signature = upperBody.signature.slice(2).toUpperCase();
    expect((await ok('finalizeRetirement', await finalize({ ...upperBody, signature }))).id).toBe(upper.retirementId);
  });

  it('finalizes the oldest unfinalized retirement when a wallet has several of the same token', async () => {
    const wallet = Wallet.createRandom();
    const newer = ops.recordOnchainRetirement(t.registry, {
      walletAddress: wallet.address,
      creditId: f.creditId,
      amount: 1,
      fromOrganizationId: f.orgA,
      createdAt: '2024-06-01T00:00:00Z',
    });
    const older = ops.recordOnchainRetirement(t.registry, {
      walletAddress: wallet.address,
      creditId: f.creditId,
      amount: 2,
      fromOrganizationId: f.orgA,
      createdAt: '2024-01-01T00:00:00Z',
    });
    const first = await ok(
      'finalizeRetirement',
      await finalize(
        await signedBody(wallet, wallet.address, { projectAddress: older.projectAddress, tokenId: older.tokenId, beneficiary: 'First' }),
      ),
    );
    expect(first.id).toBe(older.retirementId);
    const second = await ok(
      'finalizeRetirement',
      await finalize(
        await signedBody(wallet, wallet.address, { projectAddress: older.projectAddress, tokenId: older.tokenId, beneficiary: 'Second' }),
      ),
    );
    expect(second.id).toBe(newer.retirementId);
    await fails(
      await finalize(await signedBody(wallet, wallet.address, { projectAddress: older.projectAddress, tokenId: older.tokenId })),
      409,
    );
  });

  it('lets one signature finalize one retirement: a replay is 409, also written another way', async () => {
    const wallet = Wallet.createRandom();
    const first = walletRetirement(wallet, '2024-01-01T00:00:00Z');
    const second = walletRetirement(wallet, '2024-02-01T00:00:00Z');
    const body = await signedBody(wallet, wallet.address, { projectAddress: first.projectAddress, tokenId: first.tokenId });
    expect((await ok('finalizeRetirement', await finalize(body))).id).toBe(first.retirementId);

    const before = registrySnapshot(t.registry);
    const replay = await fails(await finalize(body), 409);
    expect(replay.join(' ')).toContain(first.retirementId);
    // the same signature with v written as 0/1 instead of 27/28, and in upper case
    const v = body.signature.slice(-2) === '1b' ? '00' : '01';
    await fails(await finalize({ ...body, signature: `0x${body.signature.slice(2, -2).toUpperCase()}${v}` }), 409);
    expect(registrySnapshot(t.registry)).toBe(before);
    expect(stored(second.retirementId)).toMatchObject({ finalized_at: null });
  });

  it('finalizes one retirement when ten calls race with one signature', async () => {
    const wallet = Wallet.createRandom();
    const retirements = [walletRetirement(wallet, '2024-01-01T00:00:00Z'), walletRetirement(wallet, '2024-02-01T00:00:00Z')];
    const body = await signedBody(wallet, wallet.address, {
      projectAddress: retirements[0]!.projectAddress,
      tokenId: retirements[0]!.tokenId,
    });
    const answers = await Promise.all(Array.from({ length: 10 }, () => finalize(body)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array<number>(9).fill(409)]);
    const finalized = retirements.filter((r) => (stored(r.retirementId) as { finalized_at: number | null }).finalized_at !== null);
    expect(finalized).toHaveLength(1);
  });

  it('refuses, changing nothing: wrong signer, tampered fields, another wallet’s retirement, bad signatures, bad bodies', async () => {
    const { wallet, retirementId, projectAddress, tokenId } = walletWithRetirement(1);
    const other = walletWithRetirement(1);
    const stranger = Wallet.createRandom();
    const before = registrySnapshot(t.registry);

    // signed by a stranger but claiming to be the owner: the signature does not prove `signer`
    const wrongSigner = await signedBody(stranger, wallet.address, { projectAddress, tokenId });
    expect((await fails(await finalize(wrongSigner), 400)).join(' ')).toMatch(/signature/);

    // every signed field is covered: changing any one after signing breaks the proof
    const good = await signedBody(wallet, wallet.address, { projectAddress, tokenId });
    for (const field of ['beneficiary', 'comment', 'reason'] as const) {
      await fails(await finalize({ ...good, signedData: { ...good.signedData, [field]: `${good.signedData[field]}!` } }), 400);
    }
    await fails(await finalize({ ...good, signedData: { ...good.signedData, tokenId: `${tokenId}0` } }), 400);

    // the stranger proves their own address, but owns no retirement of this token: 404
    await fails(await finalize(await signedBody(stranger, stranger.address, { projectAddress, tokenId })), 404);
    // the other wallet's retirement cannot be claimed with this wallet's signature
    await fails(await finalize(await signedBody(wallet, other.wallet.address, { projectAddress, tokenId })), 400);

    // malformed signatures and bodies
    await fails(await finalize({ ...good, signature: '0x1234' }), 400);
    await fails(await finalize({ ...good, signature: 'not hex' }), 400);
    await fails(await finalize({ ...good, signature: `0X${good.signature.slice(2)}` }), 400);
    await fails(await finalize({ ...good, signature: `0x0x${good.signature.slice(2)}` }), 400);
    await fails(await finalize({ ...good, signature: ` ${good.signature}` }), 400);
    const all = await fails(
      await finalize({
        signer: 'nope',
        signature: '',
        signedData: { beneficiary: '', reason: '', comment: 1, projectAddress: 'x', tokenId: 'one' },
      }),
      400,
    );
    expect(all.length).toBeGreaterThanOrEqual(6);
    await fails(await finalize({}), 400);

    expect(registrySnapshot(t.registry)).toBe(before);
    expect(stored(retirementId)).toMatchObject({ finalized_at: null });
    // and the owner can still claim it afterwards
    await ok('finalizeRetirement', await finalize(good));
  });

  it('does not finalize a retirement made by an organization (only on-chain ones)', async () => {
    const wallet = Wallet.createRandom();
    ops.retireFromInventory(t.registry, { organizationId: f.orgA, creditId: f.creditId, amount: 1, beneficiary: 'B', reason: 'R' });
    const credit = t.registry.db.raw.prepare('SELECT token_address, token_id FROM credits WHERE id = ?').get(f.creditId) as {
      token_address: string;
      token_id: number;
    };
    await fails(
      await finalize(await signedBody(wallet, wallet.address, { projectAddress: credit.token_address, tokenId: String(credit.token_id) })),
      404,
    );
  });
});

describe('certificate PDF', () => {
  it('answers 404 for an unknown retirement, 409 while unclaimed, and the PDF once finalized', async () => {
    const { wallet, retirementId, projectAddress, tokenId } = walletWithRetirement(0.5);
    await fails(await callEndpoint(t, 'getRetirementPdf', { token, params: { retirementId: 'no-such-retirement' } }), 404);
    await fails(await callEndpoint(t, 'getRetirementPdf', { token, params: { retirementId } }), 409);
    await ok('finalizeRetirement', await finalize(await signedBody(wallet, wallet.address, { projectAddress, tokenId })));
    const res = await callEndpoint(t, 'getRetirementPdf', { token, params: { retirementId } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename=retirement-${retirementId}.pdf`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    // Read back as a reader would: the owner wallet under its own label, never as an organization.
    const text = execFileSync('pdftotext', ['-', '-'], { input: bytes, encoding: 'utf8' }).replace(/\s+/g, ' ');
    expect(text).toContain(`RETIRING WALLET ${wallet.address.toLowerCase()}`);
    expect(text).not.toContain('RETIRING ORGANIZATION');
  });

  it('answers 409 for a retirement made by an organization without business verification', async () => {
    const { retirementId } = ops.retireFromInventory(t.registry, {
      organizationId: f.orgA,
      creditId: f.creditId,
      amount: 0.1,
      beneficiary: 'B',
      reason: 'R',
    });
    expect((await callEndpoint(t, 'getRetirementPdf', { token, params: { retirementId } })).status).toBe(200);
    ops.setOrganizationVerified(t.registry, { organizationId: f.orgA, verified: false });
    try {
      await fails(await callEndpoint(t, 'getRetirementPdf', { token, params: { retirementId } }), 409);
    } finally {
      ops.setOrganizationVerified(t.registry, { organizationId: f.orgA, verified: true });
    }
  });
});
