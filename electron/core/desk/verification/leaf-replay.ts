// The heavy part of a history check: the leaves [from, to) downloaded, checked against what their
// page says they are, and hashed onto the verified frontier; each movement leaf's row handed on to
// be kept until the check passes. It touches no database, so it runs on the sync's thread or on a
// thread of its own (sync/worker/replay-thread.ts) beside the sync's own work.
import { toBase64 } from '@shared/transparency/bytes';
import { CompactRange } from '@shared/transparency/compact-range';
import { leafHash } from '@shared/transparency/merkle';
import { LogVerificationError, type Get, type LogFailureKind, type ServedLeaf } from '@shared/transparency/verifier';
import { base64Bytes, sha256 } from '@platform/log-crypto';
import { addMovementOfLeaf, emptyMovements, type MovementColumns } from './leaves';
import { fetchLeavesAhead } from './transport';

/** Served leaves kept as evidence when the new ones do not give the signed root (a first sync's whole log is not). */
export const EVIDENCE_LEAVES = 2000;

/** The leaves to replay onto the verified tree's right frontier (its size is `from`). */
export interface LeafJob {
  from: number;
  to: number;
  frontier: string[];
}

/**
 * The replay's end: the root and frontier it computed, or the failure of a leaf (not an unreachable
 * registry: that is thrown); with the first served leaves either way, for evidence.
 */
export type LeavesReplayed =
  | { ok: true; root: string; frontier: string[]; served: ServedLeaf[] }
  | { ok: false; kind: Exclude<LogFailureKind, 'unreachable'>; message: string; served: ServedLeaf[] };

/** Replays `job`, handing each page's movements to `keep`; throws when the registry cannot be reached. */
export type ReplayLeaves = (job: LeafJob, keep: (movements: MovementColumns) => void) => Promise<LeavesReplayed>;

/** The replay on this thread, through `get`. */
export const replayLeavesHere =
  (get: Get): ReplayLeaves =>
  async ({ from, to, frontier }, keep) => {
    const range = from === 0 ? CompactRange.empty(sha256) : CompactRange.restore(from, frontier, sha256);
    if (!range) throw new Error('the kept frontier of the verified history is damaged');
    const served: ServedLeaf[] = [];
    try {
      await fetchLeavesAhead(get, from, to, (leaves, start) => {
        const movements = emptyMovements(leaves.length);
        leaves.forEach((leaf, i) => {
          if (leaf.index !== start + i) throw new LogVerificationError('replay', `entry ${start + i} was served as ${leaf.index}`);
          const bytes = base64Bytes(leaf.data) ?? new Uint8Array(0);
          range.appendLeafHash(leafHash(bytes, sha256));
          addMovementOfLeaf(movements, leaf, bytes);
          if (served.length < EVIDENCE_LEAVES) served.push(leaf);
        });
        keep(movements);
      });
    } catch (error) {
      if (error instanceof LogVerificationError && error.kind !== 'unreachable') {
        return { ok: false, kind: error.kind, message: error.message, served };
      }
      throw error;
    }
    return { ok: true, root: toBase64(range.root()), frontier: range.frontier(), served };
  };
