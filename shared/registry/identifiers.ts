// Identifier shapes of compatibility.md: credit ids and serializations.
import type { CreditType } from './vocabulary';

export const CONTRACT_ADDRESS = /^0x[0-9a-f]{40}$/;
export const WALLET_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** `<type>-<tokenId>-<tokenAddress>`, e.g. `exPost-3-0xab…`. */
export function formatCreditId(type: CreditType, tokenId: number | string, tokenAddress: string): string {
  return `${type}-${tokenId}-${tokenAddress.toLowerCase()}`;
}

export function parseCreditId(id: string): { type: CreditType; tokenId: string; tokenAddress: string } | undefined {
  const match = /^(exPost|exAnte)-(\d+)-(0x[0-9a-fA-F]{40})$/.exec(id);
  if (!match) return undefined;
  return { type: match[1] as CreditType, tokenId: match[2]!, tokenAddress: match[3]!.toLowerCase() };
}

/**
 * `<REGISTRY CODE>-<ISO alpha-3 country>-<n>-<project num>-<n>-<LETTER>-<n>-<vintage year>`.
 * This registry fills the free parts as: n1 = methodology sequence of the project's type (1 removal,
 * 2 avoidance, 0 other), n2 = token id, LETTER = P for ex-post / A for ex-ante, n3 = issuance batch.
 * Clients read the project number at index 3 and the vintage as the last part.
 */
export function formatSerialization(parts: {
  registryCode: string;
  countryAlpha3: string;
  category: number;
  projectNum: string;
  tokenId: number;
  type: CreditType;
  batch: number;
  vintage: string;
}): string {
  const letter = parts.type === 'exPost' ? 'P' : 'A';
  return [
    parts.registryCode,
    parts.countryAlpha3,
    parts.category,
    parts.projectNum,
    parts.tokenId,
    letter,
    parts.batch,
    parts.vintage,
  ].join('-');
}
