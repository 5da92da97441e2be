// The seed's ledger moves at volume (a scale-100 seed makes ~300,000 of them). They are written
// through the same functions the operations use — appendMovement and insertRetirement
// (ledger.ts) — so balances are still derived from movements by the triggers and an overdraft
// still aborts. What is skipped is per-call work the seed does not need: zod parsing of inputs the
// seed itself built, a savepoint per call inside the seed's single transaction, and looking up the
// same organization, credit and account rows again and again (account ids are cached here).
import { parseCreditId } from '@shared/registry/identifiers';
import type { RegistryContext } from '../context';
import { accountId, appendMovement, insertRetirement, type AccountRef } from '../ledger';

export class SeedLedger {
  private readonly accounts = new Map<string, string>();

  constructor(private readonly ctx: RegistryContext) {}

  account(ref: AccountRef): string {
    const key =
      ref.kind === 'wallet'
        ? `wallet:${ref.address.toLowerCase()}`
        : 'organizationId' in ref
          ? `${ref.kind}:${ref.organizationId}`
          : ref.kind;
    let id = this.accounts.get(key);
    if (!id) this.accounts.set(key, (id = accountId(this.ctx, ref)));
    return id;
  }

  /** transfer between inventories / registry accounts, deposit into or withdraw from a warehouse. */
  move(kind: 'transfer' | 'deposit' | 'withdraw', creditId: string, from: AccountRef, to: AccountRef, grams: number): void {
    appendMovement(this.ctx, { creditId, kind, from: this.account(from), to: this.account(to), amount: positiveGrams(grams) });
  }

  cancel(creditId: string, from: AccountRef, grams: number): void {
    appendMovement(this.ctx, { creditId, kind: 'cancel', from: this.account(from), amount: positiveGrams(grams) });
  }

  /** A claimed retirement from an organization's inventory (as retireFromInventory in operations/retirements.ts). */
  retireFromInventory(r: {
    organizationId: string;
    creditId: string;
    grams: number;
    beneficiary: string;
    reason: string;
    comment: string;
  }): string {
    return insertRetirement(this.ctx, {
      creditId: r.creditId,
      fromAccount: this.account({ kind: 'inventory', organizationId: r.organizationId }),
      amount: positiveGrams(r.grams),
      source: 'inventory',
      organizationId: r.organizationId,
      beneficiary: r.beneficiary,
      reason: r.reason,
      comment: r.comment,
    });
  }

  /**
   * An unclaimed on-chain retirement: the organization's credits go to the wallet, which retires
   * them (as recordOnchainRetirement with fromOrganizationId).
   */
  retireOnchain(r: { walletAddress: string; fromOrganizationId: string; creditId: string; grams: number }): {
    id: string;
    projectAddress: string;
    tokenId: string;
  } {
    const token = parseCreditId(r.creditId);
    if (!token) throw new Error(`seed: malformed credit id ${r.creditId}`);
    const wallet: AccountRef = { kind: 'wallet', address: r.walletAddress };
    this.move('transfer', r.creditId, { kind: 'inventory', organizationId: r.fromOrganizationId }, wallet, r.grams);
    const id = insertRetirement(this.ctx, {
      creditId: r.creditId,
      fromAccount: this.account(wallet),
      amount: positiveGrams(r.grams),
      source: 'onchain',
      organizationId: null,
      ownerWallet: r.walletAddress,
      projectAddress: token.tokenAddress,
      tokenId: token.tokenId,
    });
    return { id, projectAddress: token.tokenAddress, tokenId: token.tokenId };
  }
}

function positiveGrams(grams: number): number {
  if (!Number.isSafeInteger(grams) || grams <= 0) throw new Error(`seed: a ledger move of ${grams} g`);
  return grams;
}
