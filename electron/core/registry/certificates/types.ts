/** Everything a retirement certificate shows; all text already formatted for print. */
export interface CertificateInput {
  registryName: string;
  retirementId: string;
  /** ISO 8601 UTC, e.g. 2024-05-01T10:00:00.000Z; the certificate prints the date (and time) in UTC. */
  retiredAt: string;
  /** Exact decimal tonnes as people read them, e.g. "1,012.5" (shared/registry/amounts.ts formatTonnesForPeople). */
  amountTonnes: string;
  beneficiary: string;
  reason: string;
  comment: string;
  retiringOrganization: string;
  projectName: string;
  projectNum: string;
  serialization: string;
  vintage: string;
  /** Public URL where the retirement can be checked. */
  verifyUrl: string;
}
