// What the log answers to any verifier (the public HTTP endpoints, the certificate): pages of
// leaves, inclusion and consistency proofs over the committed tree, and a record's leaf index. Bad
// numbers are 400s naming the parameter.
import { toBase64 } from '@shared/transparency/bytes';
import type { Kysely } from 'kysely';
import type { RegistryContext } from '../context';
import type { RegistryTables } from '../schema';
import { badRequest, notFound } from '../errors';
import { encodeLeaf, leafIdOf, type LeafKind } from './leaf';
import { leafIndexOf } from './refs';
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

type Q = Kysely<RegistryTables>;
const pageLeaves = (v: { start: number; end: number }, q: Q) =>
  q.selectFrom('tlog_leaves').select(['idx', 'kind', 'ref']).where('idx', '>=', v.start).where('idx', '<', v.end).orderBy('idx');

/** Leaves [start, end), at most MAX_LEAVES_PAGE of them, and never past the log's end. */
export function leavesPage(ctx: RegistryContext, start: number, end: number): { leaves: ServedLeaf[] } {
  if (end <= start) throw badRequest('end: must be greater than start');
  const size = withinLog(ctx, 'start', start);
  const last = Math.min(end, size, start + MAX_LEAVES_PAGE);
  const rows = ctx.db.prepared(pageLeaves).all({ start, end: last });
  const data = currentLeafData(ctx, rows);
  return {
    leaves: rows.map((r) => ({
      index: Number(r.idx),
      data: Buffer.from(data.get(`${r.kind}:${r.ref}`) ?? '', 'utf8').toString('base64'),
      kind: r.kind,
      id: r.ref,
    })),
  };
}

/**
 * The leaves' bytes encoded from their rows as stored now (only the hashes are logged): a row
 * rewritten behind the registry's back then no longer hashes into the signed tree, and any verifier
 * that replays the leaves sees it. A row gone is served as no bytes (which fails the same way). One
 * query per kind for the whole page, by `kind:id`.
 */
/** The list repeated to a power of two of its length, so that a page's IN lists compile to a few statements, not one per length. */
function padded<T>(list: T[]): T[] {
  if (list.length === 0) return list;
  const length = 2 ** Math.ceil(Math.log2(list.length));
  return [...list, ...Array<T>(length - list.length).fill(list[list.length - 1]!)];
}

function currentLeafData(ctx: RegistryContext, leaves: { kind: LeafKind; ref: string }[]): Map<string, string> {
  const data = new Map<string, string>();
  const refs = (kind: LeafKind) => padded(leaves.filter((l) => l.kind === kind).map((l) => l.ref));
  const movementIds = refs('movement').map(Number);
  const auditIds = refs('audit');
  const rows: [LeafKind, Record<string, unknown>[]][] = [
    ['movement', movementIds.length === 0 ? [] : ctx.db.all(ctx.db.q.selectFrom('movements').selectAll().where('id', 'in', movementIds))],
    ['audit', auditIds.length === 0 ? [] : ctx.db.all(ctx.db.q.selectFrom('audit_log').selectAll().where('id', 'in', auditIds))],
  ];
  for (const [kind, stored] of rows) for (const row of stored) data.set(`${kind}:${leafIdOf(kind, row)}`, encodeLeaf(kind, row));
  return data;
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
const retirementMovement = (v: { id: string }, q: Q) => q.selectFrom('retirements').select('movement_id').where('id', '=', v.id);

export function findLeafIndex(ctx: RegistryContext, kind: LookupKind, id: string): number | undefined {
  let leafKind: LeafKind = kind === 'audit' ? 'audit' : 'movement';
  let ref = id;
  if (kind === 'retirement') {
    const row = ctx.db.prepared(retirementMovement).first({ id });
    if (!row || row.movement_id === null) return undefined;
    leafKind = 'movement';
    ref = String(row.movement_id);
  }
  return leafIndexOf(ctx, leafKind, ref);
}

export function lookupLeaf(ctx: RegistryContext, kind: LookupKind, id: string): { index: number; kind: LookupKind; id: string } {
  const index = findLeafIndex(ctx, kind, id);
  if (index === undefined) throw notFound(`No ${kind} ${id} in the transparency log`);
  return { index, kind, id };
}
