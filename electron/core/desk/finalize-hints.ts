// What the desk knows for finalizing a retirement, from its own data only: the contract address and
// token ids of the retirement's project, and, where this desk's operator account has synced the
// credit histories (the back office), the token the retirement took: its retire movement names the
// retirement. The account manager's interface never shows an unfinalized retirement's token (only
// its amount and project), so without an operator account the user picks it.
import type { Kysely } from 'kysely';
import { parseCreditId } from '@shared/registry/identifiers';
import type { DeskCache } from './cache';
import type { CacheTables } from './cache/schema';
import { DeskFailure } from './errors';

export interface FinalizeHints {
  projectAddress: string | null;
  tokens: Array<{ tokenId: string; serialization: string; vintage: string; type: string }>;
  /** The token this retirement took, when the back office's credit histories show it; else null. */
  retiredTokenId: string | null;
}

const retiredCredit = (v: { retirementId: string }, q: Kysely<CacheTables>) =>
  q.selectFrom('bo_ledger').select('credit_id').where('kind', '=', 'retire').where('reference', '=', v.retirementId).limit(1);

export function finalizeHints(cache: DeskCache, retirementId: string): FinalizeHints {
  const found = cache.getRetirement(retirementId);
  if (!found) throw new DeskFailure('not_found', `Retirement ${retirementId} is not in the desk's data (it may not be synced yet)`);
  const tokens = cache.projectTokens(found.retirement.project.id);
  const addresses = new Set(tokens.map((t) => t.tokenAddress.toLowerCase()));
  const creditId = cache.db.prepared(retiredCredit).first({ retirementId })?.credit_id;
  const retired = creditId === undefined ? undefined : parseCreditId(creditId);
  return {
    projectAddress: retired?.tokenAddress ?? (addresses.size === 1 ? [...addresses][0]! : null),
    tokens: tokens.map(({ tokenId, serialization, vintage, type }) => ({ tokenId, serialization, vintage, type })),
    retiredTokenId: retired?.tokenId ?? null,
  };
}
