// What the log answers to any verifier (the public HTTP endpoints, the certificate): pages of
// leaves, inclusion and consistency proofs over the committed tree, and a record's leaf index. Bad
// numbers are 400s naming the parameter.
import { toBase64 } from '../../../../shared/transparency/bytes';
import type { RegistryContext } from '../context';
import { badRequest, notFound } from '../errors';
import { encodeLeaf, LEAF_SOURCES, type LeafKind } from './leaf';
import { syncedTree } from './tree';

export const MAX_LEAVES_PAGE = 1000;

export interface ServedLeaf {
  index: number;
  /** The leaf's canonical bytes, base64. */
  data: string;
  kind: LeafKind;
  id: string;
}

function withinLog(ctx: RegistryContext, name: string, value: number): number {
  const size = syncedTree(ctx).size;
  if (value > size) throw badRequest(`${name}: must be at most the log's size, ${size}`);
  return size;
}

/** Leaves [start, end), at most MAX_LEAVES_PAGE of them, and never past the log's end. */
export function leavesPage(ctx: RegistryContext, start: number, end: number): { leaves: ServedLeaf[] } {
  if (end <= start) throw badRequest('end: must be greater than start');
  const size = withinLog(ctx, 'start', start);
  const last = Math.min(end, size, start + MAX_LEAVES_PAGE);
  const rows = ctx.db.prepare('SELECT idx, kind, ref, data FROM tlog_leaves WHERE idx >= ? AND idx < ? ORDER BY idx').all(start, last) as {
    idx: number;
    kind: LeafKind;
    ref: string;
    data: string;
  }[];
  return {
    leaves: rows.map((r) => ({
      index: Number(r.idx),
      data: Buffer.from(currentLeafData(ctx, r.kind, r.ref), 'utf8').toString('base64'),
      kind: r.kind,
      id: r.ref,
    })),
  };
}

/**
 * A leaf's bytes encoded from its row as stored now, not copied from the log: a row rewritten
 * behind the registry's back then no longer hashes into the signed tree, and any verifier that
 * replays the leaves sees it. A row gone is served as no bytes (which fails the same way).
 */
function currentLeafData(ctx: RegistryContext, kind: LeafKind, ref: string): string {
  const { table, idColumn } = LEAF_SOURCES[kind];
  const row = ctx.db.prepare(`SELECT * FROM ${table} WHERE ${idColumn} = ?`).get(kind === 'movement' ? Number(ref) : ref) as
    Record<string, unknown> | undefined;
  return row ? encodeLeaf(kind, row) : '';
}

export function inclusionProof(ctx: RegistryContext, index: number, size: number): { index: number; size: number; hashes: string[] } {
  withinLog(ctx, 'size', size);
  if (index >= size) throw badRequest('index: must be below size');
  return { index, size, hashes: syncedTree(ctx).inclusionProof(index, size).map(toBase64) };
}

export function consistencyProof(ctx: RegistryContext, from: number, to: number): { from: number; to: number; hashes: string[] } {
  withinLog(ctx, 'to', to);
  if (from > to) throw badRequest('from: must be at most to');
  return { from, to, hashes: syncedTree(ctx).consistencyProof(from, to).map(toBase64) };
}

export const LOOKUP_KINDS = ['movement', 'audit', 'retirement'] as const;
export type LookupKind = (typeof LOOKUP_KINDS)[number];

/** The leaf of a movement (by its number), an audit entry or a retirement (its retire movement's leaf), if logged. */
export function findLeafIndex(ctx: RegistryContext, kind: LookupKind, id: string): number | undefined {
  let leafKind: LeafKind = kind === 'audit' ? 'audit' : 'movement';
  let ref = id;
  if (kind === 'retirement') {
    const row = ctx.db.prepare('SELECT movement_id FROM retirements WHERE id = ?').get(id) as { movement_id: number } | undefined;
    if (!row) return undefined;
    leafKind = 'movement';
    ref = String(row.movement_id);
  }
  const leaf = ctx.db.prepare('SELECT idx FROM tlog_leaves WHERE kind = ? AND ref = ?').get(leafKind, ref) as { idx: number } | undefined;
  return leaf ? Number(leaf.idx) : undefined;
}

export function lookupLeaf(ctx: RegistryContext, kind: LookupKind, id: string): { index: number; kind: LookupKind; id: string } {
  const index = findLeafIndex(ctx, kind, id);
  if (index === undefined) throw notFound(`No ${kind} ${id} in the transparency log`);
  return { index, kind, id };
}
