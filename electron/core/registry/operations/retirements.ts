// Retirements the operator records: out of an organization's inventory, or made by a wallet on
// chain (unclaimed until its owner finalizes it, registry/retirements/finalize.ts).
//
// Every operation validates its whole input first (a clear error, nothing changed) and makes its
// changes in one transaction; its input schema is in shared/registry/operator-inputs.ts (the CLI and the
// operator endpoints are built from it).
import { z } from 'zod';
import type { RegistryContext } from '../context';
import { grams, parseInput } from '../input';
import { accountId, appendMovement, insertRetirement } from '../ledger';
import { requireCredit, requireOrganization } from './lookups';
import { retireFromInventoryInput, recordOnchainRetirementInput } from '@shared/registry/operator-inputs';
export { retireFromInventoryInput, recordOnchainRetirementInput };

export function retireFromInventory(ctx: RegistryContext, input: z.input<typeof retireFromInventoryInput>): { retirementId: string } {
  const o = parseInput(retireFromInventoryInput, input);
  const amount = grams(o.amount);
  return ctx.db.transaction(() => {
    requireOrganization(ctx, o.organizationId);
    requireCredit(ctx, o.creditId);
    const retirementId = insertRetirement(ctx, {
      creditId: o.creditId,
      fromAccount: accountId(ctx, { kind: 'inventory', organizationId: o.organizationId }),
      amount,
      source: 'inventory',
      organizationId: o.organizationId,
      beneficiary: o.beneficiary,
      reason: o.reason,
      comment: o.comment,
    });
    return { retirementId };
  });
}

/** Records a retirement a wallet made on chain: unclaimed until its owner finalizes it. */
export function recordOnchainRetirement(
  ctx: RegistryContext,
  input: z.input<typeof recordOnchainRetirementInput>,
): { retirementId: string; walletAddress: string; projectAddress: string; tokenId: string } {
  const o = parseInput(recordOnchainRetirementInput, input);
  const amount = grams(o.amount);
  const wallet = o.walletAddress.toLowerCase();
  return ctx.db.transaction(() => {
    const credit = requireCredit(ctx, o.creditId);
    const walletAccount = accountId(ctx, { kind: 'wallet', address: wallet });
    if (o.fromOrganizationId) {
      requireOrganization(ctx, o.fromOrganizationId);
      appendMovement(ctx, {
        creditId: credit.id,
        kind: 'transfer',
        from: accountId(ctx, { kind: 'inventory', organizationId: o.fromOrganizationId }),
        to: walletAccount,
        amount,
        ...(o.createdAt !== undefined ? { createdAt: o.createdAt } : {}),
      });
    }
    const retirementId = insertRetirement(ctx, {
      creditId: credit.id,
      fromAccount: walletAccount,
      amount,
      source: 'onchain',
      organizationId: null,
      ownerWallet: wallet,
      projectAddress: credit.token_address,
      tokenId: String(credit.token_id),
      ...(o.createdAt !== undefined ? { createdAt: o.createdAt } : {}),
    });
    return { retirementId, walletAddress: wallet, projectAddress: credit.token_address, tokenId: String(credit.token_id) };
  });
}
