// `npm run verify -- --evidence <file> [<registry url>]`: checks a desk's evidence file
// (shared/transparency/evidence.ts, docs/transparency.md "The evidence file") without the desk.
// Offline, each finding's signed checkpoints are checked under the file's key, and what they prove
// is said: two roots signed for one size (a fork) and a shorter log signed later are proved by the
// signatures alone; a consistency proof or leaves the registry served (unsigned) are recomputed and
// shown not to give the signed roots. With a registry address, its history as served now is also
// checked against the last checkpoint the desk verified (read only: the file is never written).
import { fromBase64, toBase64 } from '@shared/transparency/bytes';
import { CompactRange } from '@shared/transparency/compact-range';
import { evidenceFile, type EvidenceFile, type EvidenceFinding } from '@shared/transparency/evidence';
import { leafHash, verifyConsistency } from '@shared/transparency/merkle';
import { parseVerifierKey, type VerifierKey } from '@shared/transparency/note';
import { fetchCheckpoint, type VerifiedCheckpoint } from '@shared/transparency/verifier';
import { sha256, verifyEd25519 } from '@platform/log-crypto';

export type FindingOutcome = 'proved' | 'shown' | 'not checkable offline' | 'does not hold';

export interface FindingCheck {
  foundAt: string;
  kind: string;
  outcome: FindingOutcome;
  detail: string;
}

export interface EvidenceReport {
  /** Every finding's check holds (none is contradicted by the file's own content). */
  holds: boolean;
  key: string | null;
  findings: FindingCheck[];
}

type Opened = VerifiedCheckpoint | 'unsigned' | null;

async function open(note: string | null, key: VerifierKey): Promise<Opened> {
  if (note === null) return null;
  try {
    return await fetchCheckpoint(async () => ({ status: 200, text: note }), key, verifyEd25519);
  } catch {
    return 'unsigned';
  }
}

/** The leaves a finding kept, hashed onto the verified frontier: the root they give, when they are all there. */
function replayedRoot(file: EvidenceFile, finding: EvidenceFinding, kept: VerifiedCheckpoint | null, latest: VerifiedCheckpoint) {
  const leaves = (finding.proof as { leaves?: { index: number; data: string }[] } | null)?.leaves;
  if (!Array.isArray(leaves)) return null;
  const from = kept?.size ?? 0;
  const range =
    kept === null
      ? CompactRange.empty(sha256)
      : file.verified?.checkpoint === finding.keptCheckpoint
        ? CompactRange.restore(from, file.verified.frontier, sha256)
        : undefined;
  if (!range || (kept && toBase64(range.root()) !== kept.root)) return null;
  if (leaves.length !== latest.size - from || leaves.some((l, i) => l.index !== from + i)) return null;
  for (const leaf of leaves) range.appendLeafHash(leafHash(fromBase64(leaf.data) ?? new Uint8Array(0), sha256));
  return toBase64(range.root());
}

async function checkFinding(
  file: EvidenceFile,
  finding: EvidenceFinding,
  key: VerifierKey,
): Promise<Omit<FindingCheck, 'foundAt' | 'kind'>> {
  const kept = await open(finding.keptCheckpoint, key);
  const latest = await open(finding.latestCheckpoint, key);
  if (finding.kind === 'signature') {
    return latest === 'unsigned'
      ? { outcome: 'proved', detail: 'the latest checkpoint is not signed by the pinned key' }
      : { outcome: 'does not hold', detail: 'the latest checkpoint is missing or signed by the pinned key' };
  }
  if (kept === 'unsigned' || latest === 'unsigned') {
    return {
      outcome: 'does not hold',
      detail: `the ${kept === 'unsigned' ? 'kept' : 'latest'} checkpoint is not signed by the file's key`,
    };
  }
  if (kept && latest && finding.kind === 'fork' && kept.size === latest.size) {
    return kept.root !== latest.root
      ? { outcome: 'proved', detail: `two different roots were signed for ${kept.size} entries` }
      : { outcome: 'does not hold', detail: 'both checkpoints sign the same root' };
  }
  if (kept && latest && finding.kind === 'truncated') {
    return latest.size < kept.size
      ? { outcome: 'proved', detail: `a checkpoint of ${latest.size} entries was signed after one of ${kept.size}` }
      : { outcome: 'does not hold', detail: 'the latest checkpoint is not shorter than the kept one' };
  }
  const hashes = (finding.proof as { hashes?: string[] } | null)?.hashes;
  if (kept && latest && Array.isArray(hashes)) {
    const proof = hashes.map((h) => fromBase64(h) ?? new Uint8Array(0));
    return verifyConsistency(kept.size, latest.size, fromBase64(kept.root)!, fromBase64(latest.root)!, proof, sha256)
      ? { outcome: 'does not hold', detail: 'the consistency proof kept does verify' }
      : {
          outcome: 'shown',
          detail: `the consistency proof the registry served from ${kept.size} to ${latest.size} entries does not verify`,
        };
  }
  if (latest) {
    const root = replayedRoot(file, finding, kept, latest);
    if (root !== null) {
      return root !== latest.root
        ? { outcome: 'shown', detail: `the leaves the registry served do not give the root it signed for ${latest.size} entries` }
        : { outcome: 'does not hold', detail: 'the leaves kept do give the signed root' };
    }
  }
  return {
    outcome: 'not checkable offline',
    detail: 'check the registry as it is now: npm run verify -- --evidence <file> <registry url>',
  };
}

export async function checkEvidence(text: string): Promise<EvidenceReport & { file: EvidenceFile }> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('--evidence: the file is not JSON');
  }
  const parsed = evidenceFile.safeParse(json);
  if (!parsed.success)
    throw new Error(
      `--evidence: not a desk's evidence file (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message})`,
    );
  const file = parsed.data;
  const key = file.key === null ? null : parseVerifierKey(file.key);
  if (key && 'error' in key) throw new Error(`--evidence: the file's key: ${key.error}`);
  const findings: FindingCheck[] = [];
  for (const finding of file.findings) {
    const base = { foundAt: finding.foundAt, kind: finding.kind };
    if (finding.kind === 'started_over') findings.push({ ...base, outcome: 'not checkable offline', detail: finding.reason });
    else if (!key) findings.push({ ...base, outcome: 'not checkable offline', detail: 'the file holds no key' });
    else findings.push({ ...base, ...(await checkFinding(file, finding, key)) });
  }
  return { holds: findings.every((f) => f.outcome !== 'does not hold'), key: file.key, findings, file };
}
