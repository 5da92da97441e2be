// Signed checkpoints of the log: at first start (even of an empty log), then at most one every
// CHECKPOINT_INTERVAL_MS while the log grows, by a timer (and by a reader asking for the latest one
// when it is stale), each stored append-only with the time the registry's clock gave it. The timer
// never throws: a failure is logged and the next tick tries again.
import { iso } from '@platform/clock';
import { toBase64 } from '@shared/transparency/bytes';
import { checkpointBody, formatSignedNote } from '@shared/transparency/note';
import { repeatSafely, type BackgroundService } from '../background';
import type { Kysely } from 'kysely';
import type { RegistryContext } from '../context';
import type { RegistryTables } from '../schema';
import { logKey } from './keys';
import { indexLeafRefs } from './refs';
import { logSize, logSizeAsync, syncedTree } from './tree';

export const CHECKPOINT_INTERVAL_MS = 3_000;
const TICK_MS = 1_000;

export interface StoredCheckpoint {
  size: number;
  /** Base64 root hash. */
  root: string;
  /** When it was signed (epoch ms, the registry's clock). */
  at: number;
  /** The signed note. */
  note: string;
}

type Q = Kysely<RegistryTables>;
const latestRow = (_v: Record<string, never>, q: Q) =>
  q.selectFrom('tlog_checkpoints').select(['size', 'root', 'at', 'note']).orderBy('size', 'desc').limit(1);
const covering = (v: { index: number }, q: Q) =>
  q.selectFrom('tlog_checkpoints').select(['size', 'root', 'at', 'note']).where('size', '>', v.index).orderBy('size').limit(1);
const insertCheckpoint = (v: { size: number; root: string; at: number; note: string }, q: Q) =>
  q
    .insertInto('tlog_checkpoints')
    .values({ size: v.size, root: v.root, at: v.at, note: v.note })
    .onConflict((oc) => oc.column('size').doNothing());

// PostgreSQL answers BIGINT columns as text: numbers here
const toCheckpoint = (row: StoredCheckpoint | undefined): StoredCheckpoint | undefined =>
  row && { size: Number(row.size), root: row.root, at: Number(row.at), note: row.note };

export function latestCheckpoint(ctx: RegistryContext): StoredCheckpoint | undefined {
  return toCheckpoint(ctx.db.prepared(latestRow).first({}));
}

/** The first checkpoint whose tree holds leaf `index` (the one a certificate names). */
export function checkpointCovering(ctx: RegistryContext, index: number): StoredCheckpoint | undefined {
  return toCheckpoint(ctx.db.prepared(covering).first({ index }));
}

/** Signs a checkpoint of the whole log now, unless the latest already covers it. */
export function signCheckpoint(ctx: RegistryContext): StoredCheckpoint {
  const key = logKey(ctx);
  return ctx.db.transaction(() => {
    const size = logSize(ctx);
    const latest = latestCheckpoint(ctx);
    if (latest && latest.size >= size) return latest;
    const at = ctx.clock.now();
    const root = toBase64(syncedTree(ctx).root(size));
    const body = checkpointBody({ origin: key.name, size, root: Buffer.from(root, 'base64'), extensions: [`time ${iso(at)}`] });
    const note = formatSignedNote(body, key.name, key.publicKey, key.sign(Buffer.from(body, 'utf8')));
    ctx.db.prepared(insertCheckpoint).run({ size, root, at, note });
    // SQLite: the records' lookup catches up here, in bulk, rather than on every write
    indexLeafRefs(ctx);
    return latestCheckpoint(ctx)!;
  });
}

/** A new checkpoint when the log grew and the latest is at least the interval old (or there is none). */
export function refreshCheckpoint(ctx: RegistryContext, intervalMs = CHECKPOINT_INTERVAL_MS): StoredCheckpoint {
  const latest = latestCheckpoint(ctx);
  if (latest && (latest.size >= logSize(ctx) || ctx.clock.now() - latest.at < intervalMs)) return latest;
  return signCheckpoint(ctx);
}

/**
 * refreshCheckpoint for the timer: the two reads that decide do not hold the process (on
 * PostgreSQL each is a round trip, every second), and only a checkpoint that is due is signed.
 */
export async function refreshCheckpointAsync(ctx: RegistryContext, intervalMs = CHECKPOINT_INTERVAL_MS): Promise<void> {
  const latest = toCheckpoint((await ctx.db.prepared(latestRow).allAsync({}))[0]);
  if (latest && (ctx.clock.now() - latest.at < intervalMs || latest.size >= (await logSizeAsync(ctx)))) return;
  signCheckpoint(ctx);
}

/**
 * Signs a new checkpoint when the log grew (refreshCheckpoint decides), every second, through the
 * server's own background machinery: no failure escapes a tick, and a run of failures is logged once
 * to the server's log (never with key material: none reaches an error here).
 */
export const checkpointService: BackgroundService = {
  name: 'transparency-checkpoints',
  start(ctx, options = {}) {
    return repeatSafely('transparency log: signing a checkpoint', TICK_MS, () => refreshCheckpointAsync(ctx), {
      log: options.log,
      runNow: true,
    });
  },
};
