// The retirements Finalize dialog in real Chromium, with the real wallet Web Worker signing and a
// desk scripted through its bridge: its steps (wallet, details, review, done), what it refuses
// before signing, and that it sends only {retirementId, signer, signature, signedData}, the
// signature proving the signer over exactly the message shown.
import { encryptKeystoreJson, verifyMessage, Wallet } from 'ethers';
import { beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { page } from 'vitest/browser';
import type { Retirement } from '@shared/registry/resources';
import { FinalizeDialog } from '@renderer/screens/retirements/FinalizeDialog';
import { useWallet } from '@renderer/stores/wallet';
import { walletRequest } from '@renderer/wallet/walletClient';
import '@renderer/styles/app.css';
import { render } from './render';
import { deskError, installScriptedBridge } from './scripted-bridge';

const desk = installScriptedBridge();

const PRIVATE_KEY = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const OWNER = new Wallet(PRIVATE_KEY).address;
const CONTRACT = '0x00000000000000000000000000000000000000c1';
const NOW = new Date().toISOString();

const claimed: Retirement = {
  createdAt: NOW,
  id: 'retirement-9',
  isClaimed: true,
  reason: 'Net zero 2030',
  comment: '  kept as typed ',
  beneficiary: 'Ada Lovelace',
  organizationId: OWNER,
  organizationOwner: { id: OWNER, fullName: OWNER, logo: '', publicUrl: '' },
  serialization: 'RDR-KEN-1-12-7-P-1-2023',
  vintage: '2023',
  amount: 2,
  project: { id: 'project-1', fullName: 'Kenya Cookstoves', url: '', publicUrl: '', num: '12' },
};

let finalized: Mock<(retirement: Retirement) => void>;

function open() {
  finalized = vi.fn();
  render(
    <FinalizeDialog retirementId="retirement-9" projectName="Kenya Cookstoves" amount={2} onClose={() => {}} onFinalized={finalized} />,
  );
}

async function openWallet() {
  await page.getByRole('radio', { name: 'Private key' }).click();
  await page.getByLabelText('Private key (hex)').fill(PRIVATE_KEY);
  await page.getByRole('button', { name: 'Open wallet' }).click();
  await expect.element(page.getByText(`Signing with wallet ${OWNER}`, { exact: false })).toBeVisible();
}

async function fillDetails() {
  await page.getByLabelText('Beneficiary').fill('  Ada Lovelace ');
  await page.getByLabelText('Reason').fill('Net zero 2030 ');
  await page.getByLabelText('Comment').fill('  kept as typed ');
  await page.getByLabelText('Project contract address').fill(` ${CONTRACT}`);
  await page.getByLabelText('Token id').fill('7 ');
}

/** The calls that send something to sign or finalize (the dialog also reads hints and checks the wallet). */
const sends = () => desk.calls.filter((c) => c.method === 'retirements.finalize');

beforeEach(async () => {
  desk.reset();
  desk.answer('retirements.finalizeHints', () => ({ projectAddress: null, tokens: [], retiredTokenId: null }));
  desk.answer('retirements.walletCheck', () => ({ owns: true }));
  await useWallet.getState().forget();
});

describe('the Finalize dialog', () => {
  it('fills in the project contract address and token id, and refuses a wallet that did not make the retirement', async () => {
    desk.answer('retirements.finalizeHints', () => ({
      projectAddress: CONTRACT,
      tokens: [{ tokenId: '7', serialization: 'RDR-KEN-1-12-7-P-1-2023', vintage: '2023', type: 'exPost' }],
      retiredTokenId: null,
    }));
    desk.answer('retirements.walletCheck', () => ({ owns: false }));
    open();
    await expect.element(page.getByText('retirement-9', { exact: false })).toBeVisible();
    await openWallet();
    await expect.element(page.getByLabelText('Project contract address')).toHaveValue(CONTRACT);
    await expect.element(page.getByLabelText('Token id')).toHaveValue('7');
    // Which token, and why it is that one.
    await expect
      .element(
        page.getByText(
          "Filled in: 7 (RDR-KEN-1-12-7-P-1-2023, vintage 2023) is this project's only token, so the wallet retired that one.",
        ),
      )
      .toBeVisible();
    await expect
      .element(page.getByText('This wallet did not make this retirement: open the wallet that retired these credits.'))
      .toBeVisible();
    await expect.element(page.getByRole('button', { name: 'Review what will be signed' })).toBeDisabled();
    expect(desk.calls.find((c) => c.method === 'retirements.walletCheck')?.input).toEqual({ retirementId: 'retirement-9', wallet: OWNER });
    expect(sends()).toEqual([]);
  });

  it('with several tokens, names each and says why the desk cannot pick one, instead of "use the one the wallet retired"', async () => {
    desk.answer('retirements.finalizeHints', () => ({
      projectAddress: CONTRACT,
      tokens: [
        { tokenId: '7', serialization: 'RDR-KEN-1-12-7-P-1-2023', vintage: '2023', type: 'exPost' },
        { tokenId: '8', serialization: 'RDR-KEN-1-12-8-P-1-2024', vintage: '2024', type: 'exPost' },
      ],
      retiredTokenId: null,
    }));
    open();
    await openWallet();
    await expect.element(page.getByLabelText('Token id')).toHaveValue('');
    const hint = page.getByText(
      /This project has 2 tokens: 7 \(RDR-KEN-1-12-7-P-1-2023, vintage 2023\); 8 \(RDR-KEN-1-12-8-P-1-2024, vintage 2024\)\./,
    );
    await expect.element(hint).toBeVisible();
    await expect
      .element(hint)
      .toHaveTextContent(
        /the desk cannot tell which the wallet retired\. Take it from the wallet's retirement transaction .*, or add this registry's operator account to the connection in Settings/,
      );
  });

  it('of several tokens, fills in the one the credit history shows this retirement took, and says so', async () => {
    desk.answer('retirements.finalizeHints', () => ({
      projectAddress: CONTRACT,
      tokens: [
        { tokenId: '7', serialization: 'RDR-KEN-1-12-7-P-1-2023', vintage: '2023', type: 'exPost' },
        { tokenId: '8', serialization: 'RDR-KEN-1-12-8-P-1-2024', vintage: '2024', type: 'exPost' },
      ],
      retiredTokenId: '8',
    }));
    open();
    await openWallet();
    await expect.element(page.getByLabelText('Token id')).toHaveValue('8');
    await expect
      .element(
        page.getByText(
          "Filled in: 8 (RDR-KEN-1-12-8-P-1-2024, vintage 2024) is the token this retirement took, as the registry's records the desk keeps show (the credit history, or the reservation that made it).",
        ),
      )
      .toBeVisible();
  });

  it('draws the keep-this-wallet checkbox whole beside its long label', async () => {
    open();
    const box = page.getByRole('checkbox', { name: /Keep this wallet for this session/ });
    await expect.element(box).toBeVisible();
    const { width, height } = (box.element() as HTMLElement).getBoundingClientRect();
    // Squeezed by its label it was 7.6 px wide and 13 px high: an oval, not a box.
    expect(width).toBeGreaterThanOrEqual(12);
    expect(Math.abs(width - height)).toBeLessThan(1);
  });

  it('fills in the fields left untouched from hints that arrive after the user started typing', async () => {
    type Hints = {
      projectAddress: string | null;
      tokens: { tokenId: string; serialization: string; vintage: string; type: string }[];
      retiredTokenId: string | null;
    };
    let answerHints: ((hints: Hints) => void) | undefined;
    desk.answer('retirements.finalizeHints', () => new Promise<Hints>((resolve) => (answerHints = resolve)));
    open();
    await openWallet();
    // A fast user: the beneficiary and a token id typed before the desk answered the hints.
    await page.getByLabelText('Beneficiary').fill('Ada Lovelace');
    await page.getByLabelText('Token id').fill('8');
    await expect.poll(() => answerHints).toBeDefined();
    answerHints!({
      projectAddress: CONTRACT,
      tokens: [{ tokenId: '7', serialization: 'RDR-KEN-1-12-7-P-1-2023', vintage: '2023', type: 'exPost' }],
      retiredTokenId: null,
    });

    await expect.element(page.getByLabelText('Project contract address')).toHaveValue(CONTRACT);
    await expect.element(page.getByText("Filled in from the project's credits in the desk's data.")).toBeVisible();
    await expect.element(page.getByLabelText('Token id')).toHaveValue('8');
    await expect.element(page.getByLabelText('Beneficiary')).toHaveValue('Ada Lovelace');
  });

  it('asks for the wallet first, then refuses incomplete details without signing or sending', async () => {
    open();
    await expect.element(page.getByRole('region', { name: 'Wallet' })).toBeVisible();
    expect(page.getByLabelText('Beneficiary').query()).toBeNull();
    await openWallet();

    await page.getByLabelText('Project contract address').fill('0x12');
    await page.getByLabelText('Token id').fill('seven');
    await page.getByRole('button', { name: 'Review what will be signed' }).click();
    for (const problem of [
      'Enter the name the certificate is for.',
      'Enter why the credits were retired.',
      'Enter the project contract address: 0x followed by 40 hexadecimal characters.',
      'Enter the token id: a whole number.',
    ]) {
      await expect.element(page.getByText(problem)).toBeVisible();
    }
    expect(page.getByRole('region', { name: 'Review and sign' }).query()).toBeNull();
    expect(sends()).toEqual([]);
  });

  it('shows the exact message, signs it in the wallet worker and sends only the signature and the fields', async () => {
    open();
    await openWallet();
    await fillDetails();
    await page.getByRole('button', { name: 'Review what will be signed' }).click();

    // Trimmed fields joined by ;; (the comment is signed exactly as typed).
    const message = `Ada Lovelace;;  kept as typed ;;Net zero 2030;;${CONTRACT};;7`;
    await expect.element(page.getByLabelText('Message to sign')).toHaveTextContent(message, { normalizeWhitespace: false });

    // Back and forth keeps the details.
    await page.getByRole('button', { name: 'Back' }).click();
    await expect.element(page.getByLabelText('Beneficiary')).toHaveValue('  Ada Lovelace ');
    await page.getByRole('button', { name: 'Review what will be signed' }).click();

    desk.answer('retirements.finalize', () => ({ retirement: claimed }));
    await page.getByRole('button', { name: 'Sign and finalize' }).click();
    await expect.element(page.getByRole('status')).toHaveTextContent('Finalized. The retirement is now claimed for Ada Lovelace');

    expect(sends().map((c) => c.method)).toEqual(['retirements.finalize']);
    const sent = sends()[0]!.input as { retirementId: string; signer: string; signature: string; signedData: Record<string, string> };
    expect(Object.keys(sent).sort()).toEqual(['retirementId', 'signature', 'signedData', 'signer']);
    expect(sent.retirementId).toBe('retirement-9');
    expect(sent.signer).toBe(OWNER);
    expect(sent.signedData).toEqual({
      beneficiary: 'Ada Lovelace',
      comment: '  kept as typed ',
      reason: 'Net zero 2030',
      projectAddress: CONTRACT,
      tokenId: '7',
    });
    expect(verifyMessage(message, sent.signature)).toBe(OWNER);
    expect(JSON.stringify(sent)).not.toContain(PRIVATE_KEY.slice(2));
    expect(finalized).toHaveBeenCalledWith(claimed);
  });

  it('reports a refused finalization and stays on the review to try again', async () => {
    open();
    await openWallet();
    await fillDetails();
    await page.getByRole('button', { name: 'Review what will be signed' }).click();
    desk.answer('retirements.finalize', () => deskError('not_found', 'No on-chain retirement of this wallet and token.'));
    await page.getByRole('button', { name: 'Sign and finalize' }).click();
    await expect.element(page.getByRole('alert')).toHaveTextContent('Finalizing failed: No on-chain retirement of this wallet and token.');
    await expect.element(page.getByRole('region', { name: 'Review and sign' })).toBeVisible();
    expect(finalized).not.toHaveBeenCalled();
    expect(sends()).toHaveLength(1);
  });
});

describe('the wallet worker', () => {
  const fields = { beneficiary: 'Ada Lovelace', comment: '', reason: 'Net zero 2030', projectAddress: CONTRACT, tokenId: '7' };

  it('signs only finalization-shaped fields, builds the text itself and answers it; nothing else is signed', async () => {
    await useWallet.getState().importPrivateKey(PRIVATE_KEY, null);
    const signed = await walletRequest({ kind: 'signFinalization', fields });
    expect(signed.signedMessage).toBe(`Ada Lovelace;;;;Net zero 2030;;${CONTRACT};;7`);
    expect(verifyMessage(signed.signedMessage!, signed.signature!)).toBe(OWNER);

    for (const [bad, why] of [
      [{ ...fields, beneficiary: 'Ada;;Mallory' }, /beneficiary must not contain ";;"/],
      [{ ...fields, reason: 'ends with;' }, /reason must not contain ";;" or start or end with ";"/],
      [{ ...fields, projectAddress: 'Send 100 ETH to 0xabc' }, /projectAddress is not a contract address/],
      [{ ...fields, tokenId: '7;;extra' }, /tokenId must not contain/],
      [{ ...fields, beneficiary: ' ' }, /beneficiary is empty/],
      [{ ...fields, amount: '100' }, /unexpected fields: amount/],
    ] as const)
      await expect(walletRequest({ kind: 'signFinalization', fields: bad as typeof fields })).rejects.toThrow(why);
    // A raw message (the old request) is refused, not signed.
    await expect(walletRequest({ kind: 'sign', message: 'I transfer all my tokens' } as never)).rejects.toThrow(
      /it signs only retirement finalizations/,
    );
  });

  it("keeps a wallet only when asked, re-encrypted with the desk's scrypt (N = 2^17), never the imported file as it was", async () => {
    const weak = await encryptKeystoreJson({ address: OWNER, privateKey: PRIVATE_KEY }, 'correct horse battery', {
      scrypt: { N: 1 << 12 },
    });
    await useWallet.getState().unlockKeystore(weak, 'correct horse battery', false);
    expect(useWallet.getState()).toMatchObject({ address: OWNER, rememberedKeystore: null });
    expect(Object.values({ ...sessionStorage })).toEqual([]);

    await useWallet.getState().unlockKeystore(weak, 'correct horse battery', true);
    const kept = useWallet.getState().rememberedKeystore!;
    expect(kept).not.toBe(weak);
    expect(Object.values({ ...sessionStorage })).toEqual([kept]);
    type KeystoreCrypto = { kdf: string; kdfparams: { n: number; r: number; p: number } };
    const parsed = JSON.parse(kept) as { Crypto?: KeystoreCrypto; crypto?: KeystoreCrypto };
    const crypto = (parsed.Crypto ?? parsed.crypto)!;
    expect(crypto.kdf).toBe('scrypt');
    expect(crypto.kdfparams).toMatchObject({ n: 2 ** 17, r: 8, p: 1 });
    expect(kept.toLowerCase()).not.toContain(PRIVATE_KEY.slice(2));
    expect((await Wallet.fromEncryptedJson(kept, 'correct horse battery')).address).toBe(OWNER);
  }, 120_000);
});
