// The exact text a retirement finalization signs (compatibility.md, Retirements): the five fields
// joined by two semicolons, in this order. Shown to the user verbatim before signing. The wallet
// worker signs nothing else: it builds this text itself from fields that pass finalizeFieldsProblem.

export interface FinalizeFields {
  beneficiary: string;
  comment: string;
  reason: string;
  projectAddress: string;
  tokenId: string;
}

export function finalizeMessage(fields: FinalizeFields): string {
  return [fields.beneficiary, fields.comment, fields.reason, fields.projectAddress, fields.tokenId].join(';;');
}

const MAX_FIELD_LENGTH = 1000;

/**
 * Why `fields` do not make an unambiguous finalization message, or null when they do: text fields
 * without ";;" (or a ";" at either end, which would merge with the separator) or control
 * characters other than line breaks and tabs, a beneficiary and a reason, a contract address
 * (0x and 40 hex digits) and a token id (digits).
 */
export function finalizeFieldsProblem(fields: unknown): string | null {
  if (typeof fields !== 'object' || fields === null) return 'not finalization fields';
  const record = fields as Record<string, unknown>;
  const names = ['beneficiary', 'comment', 'reason', 'projectAddress', 'tokenId'] as const;
  const extra = Object.keys(record).filter((key) => !(names as readonly string[]).includes(key));
  if (extra.length > 0) return `unexpected fields: ${extra.join(', ')}`;
  for (const name of names) {
    const value = record[name];
    if (typeof value !== 'string') return `${name} is missing`;
    if (value.length > MAX_FIELD_LENGTH) return `${name} is longer than ${MAX_FIELD_LENGTH} characters`;
    if (value.includes(';;') || value.startsWith(';') || value.endsWith(';'))
      return `${name} must not contain ";;" or start or end with ";"`;
    if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(value)) return `${name} must not contain control characters`;
  }
  const f = record as unknown as FinalizeFields;
  if (f.beneficiary.trim() === '') return 'beneficiary is empty';
  if (f.reason.trim() === '') return 'reason is empty';
  if (!/^0x[0-9a-fA-F]{40}$/.test(f.projectAddress)) return 'projectAddress is not a contract address (0x and 40 hexadecimal digits)';
  if (!/^\d{1,78}$/.test(f.tokenId)) return 'tokenId is not a token id (digits)';
  return null;
}
