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
  /** The organization that retired the credits; empty when none did (an on-chain retirement). */
  retiringOrganization: string;
  /** The owner wallet of an on-chain retirement (0x…), printed under its own label. */
  retiringWallet?: string;
  projectName: string;
  projectNum: string;
  serialization: string;
  vintage: string;
  /** Public URL where the retirement can be checked. */
  verifyUrl: string;
  /** The registry was started without its public address (the demo): `verifyUrl` is a placeholder, said so and not linked. */
  verifyUrlIsPlaceholder?: true;
  /** Where the retirement is in the registry's transparency log (docs/transparency.md), when it is logged. */
  transparency?: CertificateTransparency;
}

export interface CertificateTransparency {
  /** The log's origin (its key name). */
  origin: string;
  /** The leaf index of the retirement's movement. */
  leafIndex: number;
  /** The first signed checkpoint that includes it: its size, base64 root and ISO signing time. */
  checkpointSize: number;
  checkpointRoot: string;
  checkpointTime: string;
  /** The registry's API base, where the proofs are served. */
  apiBaseUrl: string;
}
