// The five fields a finalization signs, as the desk checks, trims and fills them in: what is
// missing or malformed, and the token id and hint from what the desk knows of the retirement.
import type { FinalizeFields } from '@renderer/wallet/signedMessage';

export const EMPTY: FinalizeFields = { beneficiary: '', comment: '', reason: '', projectAddress: '', tokenId: '' };

export function validate(fields: FinalizeFields): Partial<Record<keyof FinalizeFields, string>> {
  const problems: Partial<Record<keyof FinalizeFields, string>> = {};
  if (!fields.beneficiary.trim()) problems.beneficiary = 'Enter the name the certificate is for.';
  if (!fields.reason.trim()) problems.reason = 'Enter why the credits were retired.';
  if (!/^0x[0-9a-fA-F]{40}$/.test(fields.projectAddress.trim()))
    problems.projectAddress = 'Enter the project contract address: 0x followed by 40 hexadecimal characters.';
  if (!/^\d+$/.test(fields.tokenId.trim())) problems.tokenId = 'Enter the token id: a whole number.';
  return problems;
}

export function trimmed(fields: FinalizeFields): FinalizeFields {
  return {
    beneficiary: fields.beneficiary.trim(),
    comment: fields.comment,
    reason: fields.reason.trim(),
    projectAddress: fields.projectAddress.trim(),
    tokenId: fields.tokenId.trim(),
  };
}

export type Hints = {
  projectAddress: string | null;
  tokens: Array<{ tokenId: string; serialization: string; vintage: string; type: string }>;
  retiredTokenId: string | null;
};

/** The token id the desk fills in: the one the credit history shows retired, else a project's only token. */
export function knownTokenId(hints: Hints | null): string {
  if (hints?.retiredTokenId) return hints.retiredTokenId;
  return hints?.tokens.length === 1 ? hints.tokens[0]!.tokenId : '';
}

/**
 * Which token the wallet retired, as far as the desk can tell: the credit history this desk's
 * operator account synced, or the warehouse reservation whose finish made the retirement, names it;
 * else a project with one token can only be that one (filled in); of several, the registry shows no
 * unclaimed retirement's token to the app, so the hint says so and what to do instead of guessing.
 */
export function tokenHint(hints: Hints | null): string {
  const tokens = hints?.tokens ?? [];
  const named = (t: Hints['tokens'][number]) => `${t.tokenId} (${t.serialization}, vintage ${t.vintage})`;
  const retired = hints?.retiredTokenId;
  if (retired) {
    const token = tokens.find((t) => t.tokenId === retired);
    return `Filled in: ${token ? named(token) : retired} is the token this retirement took, as the registry's records the desk keeps show (the credit history, or the reservation that made it).`;
  }
  if (tokens.length === 1) return `Filled in: ${named(tokens[0]!)} is this project's only token, so the wallet retired that one.`;
  const where =
    "Take it from the wallet's retirement transaction (the id of the token it retired), or add this registry's operator " +
    'account to the connection in Settings and the desk fills it in. A wrong one is refused and nothing changes.';
  if (tokens.length === 0) return `The token id of the credits the wallet retired. ${where}`;
  return (
    `This project has ${tokens.length} tokens: ${tokens.map(named).join('; ')}. The registry does not show which one an ` +
    `unfinalized retirement is of, so the desk cannot tell which the wallet retired. ${where}`
  );
}
