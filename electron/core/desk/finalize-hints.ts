// What the desk knows for finalizing a retirement, from its own data only: the contract address and
// token ids of the retirement's project, and the token the retirement took where the desk has seen
// it: the retire movement in the credit histories this desk's operator account synced (the back
// office), else the warehouse reservation whose finish made the retirement (its reservation names
// the retirement and the token, and the desk keeps each installed organization's reservations as
// last read). The account manager's interface never shows an unfinalized retirement's token (only
// its amount and project), so when neither is there the user picks it.
import type { Kysely } from 'kysely';
import { parseCreditId } from '@shared/registry/identifiers';
import type { Reservation } from '@shared/registry/resources';
import type { DeskCache } from './cache';
import type { CacheTables } from './cache/schema';
import { DeskFailure } from './errors';

export interface FinalizeHints {
  projectAddress: string | null;
  tokens: Array<{ tokenId: string; serialization: string; vintage: string; type: string }>;
  /** The token this retirement took, when the back office's credit histories or a cached reservation show it; else null. */
  retiredTokenId: string | null;
}

/** The token of the reservation whose finish made `retirementId`, among the warehouses' reservations as last read. */
function reservationToken(cache: DeskCache, retirementId: string): { tokenId: string; tokenAddress: string } | undefined {
  for (const row of cache.db.all(cache.db.q.selectFrom('warehouses').select('reservations_json'))) {
    const reservation = (JSON.parse(row.reservations_json) as Reservation[]).find((r) => r.retirementId === retirementId);
    if (reservation) return { tokenId: reservation.tokenId, tokenAddress: reservation.tokenAddress.toLowerCase() };
  }
  return undefined;
}

const retiredCredit = (v: { retirementId: string }, q: Kysely<CacheTables>) =>
  q.selectFrom('bo_ledger').select('credit_id').where('kind', '=', 'retire').where('reference', '=', v.retirementId).limit(1);

export function finalizeHints(cache: DeskCache, retirementId: string): FinalizeHints {
  const found = cache.getRetirement(retirementId);
  if (!found) throw new DeskFailure('not_found', `Retirement ${retirementId} is not in the desk's data (it may not be synced yet)`);
  const tokens = cache.projectTokens(found.retirement.project.id);
  const addresses = new Set(tokens.map((t) => t.tokenAddress.toLowerCase()));
  const creditId = cache.db.prepared(retiredCredit).first({ retirementId })?.credit_id;
  const retired = creditId === undefined ? reservationToken(cache, retirementId) : parseCreditId(creditId);
  return {
    projectAddress: retired?.tokenAddress ?? (addresses.size === 1 ? [...addresses][0]! : null),
    tokens: tokens.map(({ tokenId, serialization, vintage, type }) => ({ tokenId, serialization, vintage, type })),
    retiredTokenId: retired?.tokenId ?? null,
  };
}
