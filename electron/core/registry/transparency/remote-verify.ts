// The standalone auditor's checks (cli/verify-log.ts, `npm run verify`): only the registry's public
// transparency endpoints, no database, no token. The checkpoint's signature under the pinned key
// (given, else kept in the state file, else the one served, which is then pinned), its consistency
// with the checkpoint the last run kept, a replay of every leaf to the signed root, and the served
// inclusion proofs of a few leaves against the replayed tree.
import { readFileSync } from 'node:fs';
import { writeFileAtomicSync } from '@platform/atomic-write.mjs';
import { fromBase64 } from '@shared/transparency/bytes';
import { verifyInclusion } from '@shared/transparency/merkle';
import { parseVerifierKey } from '@shared/transparency/note';
import {
  fetchCheckpoint,
  fetchVerifierKey,
  LogVerificationError,
  replayLog,
  verifyExtends,
  type Get,
  type VerifiedCheckpoint,
} from '@shared/transparency/verifier';
import { sha256, verifyEd25519 } from '@platform/log-crypto';

export interface State {
  key: string;
  checkpoint: VerifiedCheckpoint;
}

export interface VerifyOptions {
  url: string;
  key?: string;
  state?: string;
  /** A checkpoint kept elsewhere (an evidence file's): checked like --state's, never written. */
  kept?: State;
}

function readState(file: string | undefined): State | undefined {
  if (!file) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as State;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`--state ${file}: not a state file this tool wrote`, { cause: error });
  }
}

export async function verifyRegistryLog(options: VerifyOptions): Promise<Record<string, unknown>> {
  const base = options.url.replace(/\/+$/, '');
  const get: Get = async (path) => {
    const res = await fetch(`${base}${path}`);
    return { status: res.status, text: await res.text() };
  };
  const state = options.kept ?? readState(options.state);
  const served = await fetchVerifierKey(get);
  const pinnedText = options.key ?? state?.key ?? served.text;
  const pinned = parseVerifierKey(pinnedText);
  if ('error' in pinned) throw new Error(`--key: ${pinned.error}`);
  if (served.text !== pinnedText) {
    throw new LogVerificationError('signature', `the registry now serves another key (${served.text}) than the one pinned (${pinnedText})`);
  }
  const checkpoint = await fetchCheckpoint(get, pinned, verifyEd25519);
  if (state) await verifyExtends(get, state.checkpoint, checkpoint, sha256);
  // the proofs the registry serves must agree with the replayed leaves
  const samples = new Set([0, checkpoint.size - 1, Math.floor(checkpoint.size / 2), Math.floor(checkpoint.size / 3)].filter((i) => i >= 0));
  const { leafHashes } = await replayLog(get, checkpoint, sha256, samples);
  for (const [index, hash] of leafHashes) await verifyIncludedHash(get, index, hash, checkpoint);
  if (options.state) writeFileAtomicSync(options.state, `${JSON.stringify({ key: pinnedText, checkpoint } satisfies State, null, 2)}\n`);
  return {
    verified: true,
    entries: checkpoint.size,
    root: checkpoint.root,
    ...(checkpoint.time ? { signedAt: new Date(checkpoint.time).toISOString() } : {}),
  };
}

/** The served inclusion proof of a leaf whose hash the replay computed. */
async function verifyIncludedHash(get: Get, index: number, hash: Uint8Array, checkpoint: VerifiedCheckpoint): Promise<void> {
  const { status, text } = await get(`/transparency/v1/proof/inclusion?index=${index}&size=${checkpoint.size}`);
  if (status !== 200) throw new LogVerificationError('unreachable', `the inclusion proof of entry ${index} answered ${status}`);
  const hashes = (JSON.parse(text) as { hashes: string[] }).hashes.map((h) => fromBase64(h) ?? new Uint8Array(0));
  if (!verifyInclusion(index, checkpoint.size, hash, hashes, fromBase64(checkpoint.root)!, sha256)) {
    throw new LogVerificationError('inclusion', `the registry's inclusion proof of entry ${index} does not verify`, { proof: text });
  }
}
