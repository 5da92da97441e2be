// Claiming an on-chain retirement with a wallet signature (4.3, POST /retirements/finalize).
//
// The signed message is [beneficiary, comment, reason, projectAddress, tokenId].join(';;') as an
// EIP-191 personal message. The recovered address must be `signer`; the retirement is then the
// signer's own on-chain retirement of that token. When the wallet has several unfinalized ones of
// the same token, the oldest is finalized (a wallet signs for the token, not for one retirement id;
// oldest-first makes repeated finalizes claim them one by one in a stable order). A signature
// finalizes at most one retirement: the sha256 of its canonical form is kept (used_signatures), and
// using it again is 409, so a replay by anyone who saw it cannot claim the wallet's next retirement.
import { createHash } from 'node:crypto';
import { Signature, verifyMessage } from 'ethers';
import type { z } from 'zod';
import { finalizeBody } from '@shared/registry/endpoints';
import type { Retirement } from '@shared/registry/resources';
import type { RegistryContext } from '../context';
import { badRequest, conflict, notFound } from '../errors';
import { parseInput } from '../input';
import { presentRetirement, retirementRow } from '../present';

export type FinalizeInput = z.input<typeof finalizeBody>;

export function finalizeMessage(data: {
  beneficiary: string;
  comment: string;
  reason: string;
  projectAddress: string;
  tokenId: string;
}): string {
  return [data.beneficiary, data.comment, data.reason, data.projectAddress, data.tokenId].join(';;');
}

/** The address that signed `message`, or a 400 when the signature is not a valid secp256k1 signature. */
function recoverSigner(message: string, signature: string): string {
  try {
    return verifyMessage(message, signature);
  } catch {
    throw badRequest(
      'signature: not a valid Ethereum message signature (65 bytes r, s, v, or the 64-byte compact form, as hex with or without 0x)',
    );
  }
}

/**
 * The digest a used signature is kept under: sha256 of its canonical 65-byte form, so the same
 * signature written another way (v as 0/1 or 27/28, hex case, with or without 0x) is the same one.
 */
export function signatureDigest(signature: string): string {
  const hex = /^0x/i.test(signature) ? signature : `0x${signature}`;
  return createHash('sha256').update(Signature.from(hex.toLowerCase()).serialized.toLowerCase()).digest('hex');
}

export function finalizeOnchainRetirement(ctx: RegistryContext, input: FinalizeInput): Retirement {
  const o = parseInput(finalizeBody, input);
  const signer = o.signer.toLowerCase();
  // 400, not 401: the access token is fine, the proof in the body is not. A 401 would make clients
  // throw their token away and retry with a new one, which can never help.
  if (recoverSigner(finalizeMessage(o.signedData), o.signature).toLowerCase() !== signer) {
    throw badRequest('signature: does not prove that signer signed signedData');
  }
  const projectAddress = o.signedData.projectAddress.toLowerCase();
  const digest = signatureDigest(o.signature);
  const { db } = ctx;
  const id = db.transaction(() => {
    const used = db.first(db.q.selectFrom('used_signatures').select('retirement_id').where('digest', '=', digest));
    if (used) throw conflict(`This signature has already finalized retirement ${used.retirement_id}; a signature finalizes one retirement`);
    const candidates = db.all(
      db.q
        .selectFrom('retirements')
        .select(['id', 'finalized_at'])
        .where('source', '=', 'onchain')
        .where('owner_wallet', '=', signer)
        .where('project_address', '=', projectAddress)
        .where('token_id', '=', o.signedData.tokenId)
        .orderBy('created_at')
        .orderBy('id'),
    );
    if (candidates.length === 0) {
      throw notFound(`No on-chain retirement of token ${o.signedData.tokenId} of ${projectAddress} by wallet ${signer}`);
    }
    const open = candidates.find((c) => c.finalized_at === null);
    if (!open)
      throw conflict(
        `Every on-chain retirement of token ${o.signedData.tokenId} of ${projectAddress} by wallet ${signer} is already finalized`,
      );
    const now = ctx.clock.now();
    db.run(
      db.q
        .updateTable('retirements')
        .set({ beneficiary: o.signedData.beneficiary, reason: o.signedData.reason, comment: o.signedData.comment, finalized_at: now })
        .where('id', '=', open.id)
        .where('finalized_at', 'is', null),
    );
    db.run(db.q.insertInto('used_signatures').values({ digest, retirement_id: open.id, used_at: now }));
    return open.id;
  });
  const row = retirementRow(ctx, id);
  if (!row) throw new Error(`retirement ${id} vanished after finalize`);
  return presentRetirement(ctx, row);
}
