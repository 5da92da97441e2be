// The evidence file the desk exports when a registry's history failed to verify (docs/transparency.md,
// "The evidence file"), and that `npm run verify -- --evidence <file>` checks. One JSON object: the
// key the desk pinned, the last checkpoint it verified (with the tree's right frontier, so the new
// leaves of a failed check can be hashed onto it again), and every failed check with both signed
// checkpoints and the leaves, proof or records that show it.
import { z } from 'zod';

export const EVIDENCE_FORMAT = 'registry-desk/history-evidence/1';

export const evidenceFinding = z.object({
  foundAt: z.string(),
  /** signature, fork, truncated, rewritten, replay, withdrawn, content, started_over, … */
  kind: z.string(),
  reason: z.string(),
  /** The signed checkpoint verified before, and the one that did not extend it (signed-note text). */
  keptCheckpoint: z.string().nullable(),
  latestCheckpoint: z.string().nullable(),
  /** {leaves: [...]}, {hashes: [...]} (a consistency proof), {mismatches: [...]}, or null. */
  proof: z.unknown(),
});
export type EvidenceFinding = z.infer<typeof evidenceFinding>;

export const evidenceFile = z.object({
  format: z.literal(EVIDENCE_FORMAT),
  registry: z.string(),
  connection: z.string(),
  exportedAt: z.string(),
  /** The note verifier key the desk checked checkpoints with; null when it never had one. */
  key: z.string().nullable(),
  keyFingerprint: z.string().nullable(),
  verified: z
    .object({
      entries: z.number().int().nonnegative(),
      root: z.string(),
      checkpoint: z.string(),
      /** The verified tree's complete subtrees, largest first, base64 (one per set bit of `entries`). */
      frontier: z.array(z.string()),
    })
    .nullable(),
  findings: z.array(evidenceFinding),
});
export type EvidenceFile = z.infer<typeof evidenceFile>;
