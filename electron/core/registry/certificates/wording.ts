// What the certificate says, derived from the input: the printed date, the amount with its unit,
// the sentences around the values, and the document metadata.
import type { CertificateInput } from './types';

export interface RetirementMoment {
  /** YYYY-MM-DD in UTC: the date a reader looks for. */
  day: string;
  /** Full ISO 8601 timestamp in UTC, for the small print. */
  timestamp: string;
  date: Date;
}

export function retirementMoment(retiredAt: string): RetirementMoment {
  const date = new Date(retiredAt);
  if (Number.isNaN(date.getTime())) throw new RangeError(`retiredAt is not an ISO 8601 date-time: ${retiredAt}`);
  const timestamp = date.toISOString();
  return { day: timestamp.slice(0, 10), timestamp, date };
}

export function amountText(amountTonnes: string): string {
  return `${amountTonnes} tCO2e`;
}

export const WORDS = {
  title: 'Retirement Certificate',
  certifiesThat: 'This certifies that',
  hasRetired: 'has permanently retired',
  creditsFrom: 'of verified carbon credits from the project',
  projectNumber: 'Project No.',
  vintage: 'Vintage',
  reason: 'Reason for retirement',
  comment: 'Comment',
  retirementId: 'Retirement ID',
  retiredOn: 'Date of retirement (UTC)',
  retiringOrganization: 'Retiring organization',
  retiringWallet: 'Retiring wallet',
  serialization: 'Serialization',
  sealWord: 'RETIRED',
  verifyAt: 'Verify this retirement at',
  placeholderAt: 'This registry has no public address configured (as in the demo): the address below is a placeholder and leads nowhere.',
  retiredAtExactly: 'Retired at',
} as const;

/** The certificate's proof: where the retirement is in the transparency log, and how to check it. */
export function transparencyText(t: NonNullable<CertificateInput['transparency']>): string {
  return (
    `Transparency log ${t.origin}: this retirement is entry ${t.leafIndex}, included in the checkpoint of ${t.checkpointSize} entries ` +
    `signed ${t.checkpointTime} with root ${t.checkpointRoot}. To check it without trusting the registry's website, run ` +
    `"npm run verify -- ${t.apiBaseUrl}" or fold ${t.apiBaseUrl}/transparency/v1/proof/inclusion?index=${t.leafIndex}&size=${t.checkpointSize} ` +
    `into that root (RFC 9162, section 2.1.3.2) with the registry's published key.`
  );
}

/** The document's Info dictionary; the dates come from the retirement so the bytes never depend on the clock. */
export function documentInfo(input: CertificateInput, moment: RetirementMoment): PDFKit.DocumentInfo {
  return {
    Title: `${WORDS.title} ${input.retirementId}`,
    Author: input.registryName,
    Subject: `Retirement of ${amountText(input.amountTonnes)} for ${input.beneficiary}`,
    Keywords: `retirement certificate, ${input.retirementId}, ${input.serialization}`,
    Creator: 'Registry Desk',
    Producer: 'Registry Desk (PDFKit)',
    CreationDate: moment.date,
    ModDate: moment.date,
  };
}
