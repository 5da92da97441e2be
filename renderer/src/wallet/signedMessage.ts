// The exact text a retirement finalization signs (compatibility.md, Retirements): the five fields
// joined by two semicolons, in this order. Shown to the user verbatim before signing.

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
