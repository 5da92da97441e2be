// The desk's check of its registry's history at the start of every sync (docs/desk.md): the latest
// checkpoint, signed by the key pinned at first sight, must extend the last one verified for this
// connection. Instead of a proof per record, the desk keeps the verified tree's right frontier and
// hashes the new leaves onto it: the root it computes equals the signed one only when the new tree
// extends the old (consistency) and holds exactly these leaves (inclusion of every new record). A
// failure is kept as evidence and thrown as HistoryChanged; the sync then writes nothing.
// The check is two steps: `replayHistory` downloads and hashes (writing only a temporary table), so
// it can run while the sync downloads the feed; the step it answers keeps the outcome, synchronously,
// when the sync chooses: before it keeps any row (history-check.ts `beside`, sync/feed-read.ts).
import { CompactRange } from '@shared/transparency/compact-range';
import { parseVerifierKey } from '@shared/transparency/note';
import {
  fetchCheckpoint,
  LogVerificationError,
  verifyExtends,
  type Get,
  type ServedLeaf,
  type VerifiedCheckpoint,
} from '@shared/transparency/verifier';
import type { SqliteDatabase } from '@platform/db/database';
import type { CacheTables } from '../cache/schema';
import { sha256, verifyEd25519 } from '@platform/log-crypto';
import { keepVerifiedIfMatching } from './keep-verified';
import { contentMessage } from './new-leaves';
import { keepEvidence, keepReplayed, readState, saveOutcome, startReplay, type Evidence, type HistoryState } from './store';
import { readPin } from './pin';
import { replayLeavesHere, type ReplayLeaves } from './leaf-replay';

export const HISTORY_CHANGED = "This registry's history changed since it was last verified";

/** The registry's history did not verify: the sync stops, the cache keeps what was verified. */
export class HistoryChanged extends Error {
  override readonly name = 'HistoryChanged';
  /** The failure's evidence while it is not kept yet (keepFailure keeps it once; none: kept before). */
  constructor(
    message: string,
    public evidence?: Evidence,
  ) {
    super(message);
  }
}

/** Keeps a failed check's evidence and marks the history failed (later syncs are refused); once per failure. */
export function keepFailure(db: SqliteDatabase<CacheTables>, now: () => number, failure: HistoryChanged): void {
  const evidence = failure.evidence;
  if (!evidence) return;
  failure.evidence = undefined;
  db.transaction(() => {
    keepEvidence(db, now(), evidence);
    saveOutcome(db, { outcome: 'failed', message: failure.message, at: now() });
  });
}

export type CheckOutcome = { outcome: 'verified'; size: number; newEntries: number } | { outcome: 'unverifiable'; reason: string };

interface CheckOptions {
  get: Get;
  db: SqliteDatabase<CacheTables>;
  now: () => number;
  /** Where the leaves are replayed (default: on this thread, through `get`). */
  leaves?: ReplayLeaves;
}

const keptCheckpoint = (s: HistoryState): VerifiedCheckpoint | undefined =>
  s.size !== null && s.root !== null && s.checkpoint !== null
    ? { size: s.size, root: s.root, note: s.checkpoint, ...(s.signed_at !== null ? { time: s.signed_at } : {}) }
    : undefined;

/** The whole check: replayed, then its outcome kept at once (a failure's evidence too). */
export async function checkHistory(options: CheckOptions): Promise<CheckOutcome> {
  try {
    const keep = await replayHistory(options);
    return keep();
  } catch (error) {
    if (error instanceof HistoryChanged) keepFailure(options.db, options.now, error);
    throw error;
  }
}

/**
 * What a replay found, kept when called (synchronous): the outcome, or HistoryChanged with its
 * evidence not kept yet. `rootVerified`: the replayed leaves gave the signed root, and their
 * movements wait in the replay's table (store.ts moveVerifiedAhead may move them before the keep).
 */
export type KeepOutcome = (() => CheckOutcome) & { rootVerified?: true };

/**
 * Downloads and hashes what the check needs; writes nothing but the replay's temporary table. Throws
 * HistoryChanged (its evidence not kept yet) or a client error when unreachable.
 */
export async function replayHistory({ get, db, now, leaves }: CheckOptions): Promise<KeepOutcome> {
  const state = readState(db);
  const fail = (e: Evidence): never => {
    throw new HistoryChanged(`${HISTORY_CHANGED}: ${e.message}.`, e);
  };
  if (state?.outcome === 'failed') throw new HistoryChanged(state.message ?? HISTORY_CHANGED);

  // the key of the last verified checkpoint, else the one the person reviewed, else the one served now (pinned at first sight)
  const reviewed = readPin(db)?.verifier_key ?? null;
  let keyText = state?.verifier_key ?? reviewed;
  if (keyText === null) {
    const served = await get('/transparency/v1/key');
    if (served.status === 404) return () => unverifiable(db, now, 'the registry publishes no transparency log');
    if (served.status !== 200) throw new LogVerificationError('unreachable', `GET /transparency/v1/key answered ${served.status}`);
    keyText = served.text.trim();
  }
  const key = parseVerifierKey(keyText);
  if ('error' in key) return fail({ kind: 'signature', message: `the registry's key is not one the desk can check (${key.error})` });

  const answer = await get('/transparency/v1/checkpoint');
  if (answer.status === 404) {
    // a registry verified before may not step out of being checked
    if (state?.checkpoint)
      return fail({ kind: 'withdrawn', message: 'it no longer publishes the log it was verified against', kept: state.checkpoint });
    if (reviewed !== null)
      return fail({ kind: 'withdrawn', message: `it publishes no log, though it served the key ${reviewed} when it was pinned` });
    return () => unverifiable(db, now, 'the registry publishes no checkpoint');
  }
  let latest: VerifiedCheckpoint;
  try {
    latest = await fetchCheckpoint(async () => answer, key, verifyEd25519);
  } catch (error) {
    if (!(error instanceof LogVerificationError) || error.kind !== 'signature') throw error;
    return fail(await wrongKey(get, keyText, error, answer.text, state));
  }
  const kept = state ? keptCheckpoint(state) : undefined;
  const pair = { kept: kept?.note, latest: latest.note };
  if (kept && latest.size < kept.size) {
    return fail({ kind: 'truncated', message: `its log shrank from ${kept.size} to ${latest.size} entries`, ...pair });
  }
  if (kept && latest.size === kept.size && latest.root !== kept.root) {
    return fail({ kind: 'fork', message: `two different histories of ${kept.size} entries were signed`, ...pair });
  }
  const range = kept
    ? CompactRange.restore(kept.size, JSON.parse(state!.frontier ?? '[]') as string[], sha256)
    : CompactRange.empty(sha256);
  if (!range) throw new Error('the kept frontier of the verified history is damaged');
  const from = range.size;
  startReplay(db);
  const replayed = await (leaves ?? replayLeavesHere(get))({ from, to: latest.size, frontier: range.frontier() }, (movements) =>
    keepReplayed(db, movements),
  );
  if (!replayed.ok) {
    const { kind, message, served } = replayed;
    return fail({ kind, message, ...pair, proof: JSON.stringify({ leaves: served }) });
  }
  if (replayed.root !== latest.root) {
    return fail(await mismatch(get, kept, latest, replayed.served));
  }
  const verifiedFrontier = replayed.frontier;
  const verifiedKey = keyText;
  const keep = () => {
    // the records synced while these leaves were not verified yet must be theirs (keep-verified.ts)
    const differing = keepVerifiedIfMatching(db, { key: verifiedKey, checkpoint: latest, frontier: verifiedFrontier, at: now() }, from);
    if (differing.length > 0) {
      return fail({ kind: 'content', message: contentMessage(differing), ...pair, proof: JSON.stringify({ mismatches: differing }) });
    }
    return { outcome: 'verified' as const, size: latest.size, newEntries: latest.size - from };
  };
  return Object.assign(keep, { rootVerified: true as const });
}

function unverifiable(db: SqliteDatabase<CacheTables>, now: () => number, reason: string): CheckOutcome {
  saveOutcome(db, { outcome: 'unverifiable', message: reason, at: now() });
  return { outcome: 'unverifiable', reason };
}

/** The checkpoint is not signed by the pinned key: say whether the registry now serves another key. */
async function wrongKey(
  get: Get,
  pinned: string,
  error: LogVerificationError,
  note: string,
  state: HistoryState | undefined,
): Promise<Evidence> {
  const served = await get('/transparency/v1/key').catch(() => ({ status: 0, text: '' }));
  const other = served.status === 200 && served.text.trim() !== pinned ? served.text.trim() : null;
  return {
    kind: 'signature',
    message: other
      ? `it now signs with another key (${other}) than the one kept for this connection (${pinned})`
      : `its checkpoint is not signed by the key kept for this connection (${error.message})`,
    ...(state?.checkpoint ? { kept: state.checkpoint } : {}),
    latest: note,
  };
}

/**
 * The new leaves do not give the signed root. With a consistency proof (one request, asked only now)
 * the desk tells a forked history (the new tree does not extend the verified one) from records
 * changed after they were logged (the tree extends it, but the leaves served are not its leaves).
 */
async function mismatch(
  get: Get,
  kept: VerifiedCheckpoint | undefined,
  latest: VerifiedCheckpoint,
  served: ServedLeaf[],
): Promise<Evidence> {
  const pair = { ...(kept ? { kept: kept.note } : {}), latest: latest.note };
  const leaves = JSON.stringify({ leaves: served });
  if (kept && kept.size > 0) {
    try {
      await verifyExtends(get, kept, latest, sha256);
    } catch (error) {
      if (error instanceof LogVerificationError && error.kind !== 'unreachable') {
        const proof = typeof error.evidence.proof === 'string' ? error.evidence.proof : undefined;
        return {
          kind: 'fork',
          message: `the history of ${latest.size} entries does not extend the ${kept.size} verified before`,
          ...pair,
          proof: proof ?? leaves,
        };
      }
    }
  }
  const from = kept?.size ?? 0;
  const entries = latest.size - from === 1 ? `entry ${from}` : `entries ${from} to ${latest.size - 1}`;
  return {
    kind: 'rewritten',
    message: `the ${entries} it serves do not give the root it signed: a record was changed after it was logged`,
    ...pair,
    proof: leaves,
  };
}
