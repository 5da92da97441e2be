// A client's checks of a registry's transparency log over its public endpoints alone (the desk at
// every sync, `npm run verify`): the checkpoint's signature under a pinned key, its consistency with
// the checkpoint the client kept, a record's inclusion, and a replay of every leaf. Transport and
// Ed25519 are the caller's, so this runs anywhere.
import { fromBase64, toBase64 } from './bytes';
import { CompactRange } from './compact-range';
import { leafHash, verifyConsistency, verifyInclusion } from './merkle';
import { checkpointTime, openSignedNote, parseCheckpointBody, parseVerifierKey, type VerifierKey, type VerifySignature } from './note';
import { sha256 as pureSha256, type Sha256 } from './sha256';

export type Get = (path: string) => Promise<{ status: number; text: string }>;

export interface VerifiedCheckpoint {
  size: number;
  /** Base64 root hash. */
  root: string;
  /** The time the registry signed into it (epoch ms), if it did. */
  time?: number;
  note: string;
}

export type LogFailureKind = 'signature' | 'fork' | 'truncated' | 'consistency' | 'inclusion' | 'replay' | 'unreachable';

/** The registry's history does not verify: what failed, and the evidence a person can keep. */
export class LogVerificationError extends Error {
  constructor(
    readonly kind: LogFailureKind,
    message: string,
    readonly evidence: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'LogVerificationError';
  }
}

const PREFIX = '/transparency/v1';

async function getOk(get: Get, path: string): Promise<string> {
  const { status, text } = await get(`${PREFIX}${path}`);
  if (status !== 200) throw new LogVerificationError('unreachable', `GET ${PREFIX}${path} answered ${status}`);
  return text;
}

export async function fetchVerifierKey(get: Get): Promise<VerifierKey & { text: string }> {
  const text = (await getOk(get, '/key')).trim();
  const key = parseVerifierKey(text);
  if ('error' in key) throw new LogVerificationError('signature', `the registry's key: ${key.error}`);
  return { ...key, text };
}

/** The latest checkpoint, its signature checked under `key` (the one pinned at first contact). */
export async function fetchCheckpoint(get: Get, key: VerifierKey, verify: VerifySignature): Promise<VerifiedCheckpoint> {
  const note = await getOk(get, '/checkpoint');
  const opened = openSignedNote(note, key, verify);
  if ('error' in opened) throw new LogVerificationError('signature', `the checkpoint's signature: ${opened.error}`, { checkpoint: note });
  const parsed = parseCheckpointBody(opened.body);
  if ('error' in parsed) throw new LogVerificationError('signature', `the checkpoint: ${parsed.error}`, { checkpoint: note });
  if (parsed.origin !== key.name)
    throw new LogVerificationError('signature', `the checkpoint is of another log (${parsed.origin})`, { checkpoint: note });
  const time = checkpointTime(parsed);
  return { size: parsed.size, root: toBase64(parsed.root), ...(time !== undefined ? { time } : {}), note };
}

const hashesOf = (text: string, field: string): Uint8Array[] => {
  const parsed = JSON.parse(text) as Record<string, unknown>;
  const list = parsed[field];
  if (!Array.isArray(list)) throw new LogVerificationError('consistency', `a proof without ${field}`);
  return list.map((h) => fromBase64(String(h)) ?? new Uint8Array(0));
};

/** That `latest` extends `kept` (the last checkpoint this client verified): never shorter, never another history. */
export async function verifyExtends(
  get: Get,
  kept: VerifiedCheckpoint,
  latest: VerifiedCheckpoint,
  sha: Sha256 = pureSha256,
): Promise<void> {
  const evidence = { kept: kept.note, latest: latest.note };
  if (latest.size < kept.size) {
    throw new LogVerificationError('truncated', `the registry's log shrank from ${kept.size} to ${latest.size} entries`, evidence);
  }
  if (latest.size === kept.size) {
    if (latest.root !== kept.root)
      throw new LogVerificationError('fork', `two different histories of ${kept.size} entries were signed`, evidence);
    return;
  }
  if (kept.size === 0) return;
  const text = await getOk(get, `/proof/consistency?from=${kept.size}&to=${latest.size}`);
  const proof = hashesOf(text, 'hashes');
  if (!verifyConsistency(kept.size, latest.size, fromBase64(kept.root)!, fromBase64(latest.root)!, proof, sha)) {
    throw new LogVerificationError(
      'consistency',
      `the history of ${latest.size} entries does not extend the ${kept.size} verified before`,
      {
        ...evidence,
        proof: text,
      },
    );
  }
}

/** That the leaf with these bytes is at `index` in the checkpoint's tree. */
export async function verifyIncluded(
  get: Get,
  index: number,
  data: Uint8Array,
  checkpoint: VerifiedCheckpoint,
  sha: Sha256 = pureSha256,
): Promise<void> {
  const text = await getOk(get, `/proof/inclusion?index=${index}&size=${checkpoint.size}`);
  if (!verifyInclusion(index, checkpoint.size, leafHash(data, sha), hashesOf(text, 'hashes'), fromBase64(checkpoint.root)!, sha)) {
    throw new LogVerificationError('inclusion', `entry ${index} is not in the signed history of ${checkpoint.size} entries`, {
      checkpoint: checkpoint.note,
      proof: text,
    });
  }
}

export interface ServedLeaf {
  index: number;
  data: string;
  kind: string;
  id: string;
}

/** Fetches leaves [start, end) page by page (a page may be short). */
export async function fetchLeaves(get: Get, start: number, end: number, each: (leaf: ServedLeaf) => void): Promise<void> {
  let next = start;
  while (next < end) {
    const page = (JSON.parse(await getOk(get, `/leaves?start=${next}&end=${end}`)) as { leaves: ServedLeaf[] }).leaves;
    if (page.length === 0 || page.length > end - next)
      throw new LogVerificationError('truncated', `the registry serves no leaf ${next} below ${end}`);
    for (const leaf of page) {
      if (leaf.index !== next) throw new LogVerificationError('replay', `leaf ${next} was served as ${leaf.index}`);
      each(leaf);
      next++;
    }
  }
}

/** A replay of the whole log: the root it computed, and the leaf hashes it was asked to keep. */
export interface ReplayedLog {
  root: Uint8Array;
  /** The leaf hash of each index asked for in `keep` (below the checkpoint's size). */
  leafHashes: Map<number, Uint8Array>;
}

/**
 * Replays every leaf the checkpoint covers and recomputes its root on a compact range, so memory
 * stays at log2(size) hashes however long the log (a full tree of every leaf grew with it); the
 * leaf hashes of the indexes in `keep` are kept, for checking inclusion proofs against.
 */
export async function replayLog(
  get: Get,
  checkpoint: VerifiedCheckpoint,
  sha: Sha256 = pureSha256,
  keep: Iterable<number> = [],
): Promise<ReplayedLog> {
  const range = CompactRange.empty(sha);
  const wanted = new Set(keep);
  const leafHashes = new Map<number, Uint8Array>();
  await fetchLeaves(get, 0, checkpoint.size, (leaf) => {
    const hash = leafHash(fromBase64(leaf.data) ?? new Uint8Array(0), sha);
    if (wanted.has(leaf.index)) leafHashes.set(leaf.index, hash);
    range.appendLeafHash(hash);
  });
  const root = range.root();
  if (toBase64(root) !== checkpoint.root) {
    throw new LogVerificationError('replay', `the ${checkpoint.size} entries served do not give the signed root: a record was changed`, {
      checkpoint: checkpoint.note,
    });
  }
  return { root, leafHashes };
}
