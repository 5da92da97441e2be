// What the desk knows for finalizing a retirement, from its own data only: the contract address and
// token ids of the retirement's project, so the finalize form asks as little as it can.
import type { DeskCache } from './cache';
import { DeskFailure } from './errors';

export interface FinalizeHints {
  projectAddress: string | null;
  tokens: Array<{ tokenId: string; serialization: string; vintage: string; type: string }>;
}

export function finalizeHints(cache: DeskCache, retirementId: string): FinalizeHints {
  const found = cache.getRetirement(retirementId);
  if (!found) throw new DeskFailure('not_found', `Retirement ${retirementId} is not in the desk's data (it may not be synced yet)`);
  const tokens = cache.projectTokens(found.retirement.project.id);
  const addresses = new Set(tokens.map((t) => t.tokenAddress.toLowerCase()));
  return {
    projectAddress: addresses.size === 1 ? [...addresses][0]! : null,
    tokens: tokens.map(({ tokenId, serialization, vintage, type }) => ({ tokenId, serialization, vintage, type })),
  };
}
