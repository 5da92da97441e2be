// The transparency log's leaves (docs/transparency.md): every ledger movement and every audit entry,
// appended in the transaction that writes it, in commit order. A leaf's bytes are the canonical JSON
// (keys sorted, no spaces, UTF-8) of {"id", "kind", "row"}, `row` being every column of the stored
// row as the database answers it: read back generically, so a column added later (the audit entry's
// bounded record) is covered without touching this file, and a row rewritten later no longer
// encodes to the bytes that were hashed. Only the leaf's hash is stored (migration 0015): the bytes
// are encoded again from the row whenever they are served or checked.
import { hash } from 'node:crypto';
import { sql } from 'kysely';
import { canonicalJson } from '@shared/canonical-json';
import type { CommitBatch } from '@platform/db/commit-batches';
import type { RegistryContext, RegistryDb } from '../context';
import { hasLogAppendFunction, hasTable } from '../schema-probe';
import type { RegistryTables } from '../schema';

export const LEAF_KINDS = ['movement', 'audit'] as const;
export type LeafKind = (typeof LEAF_KINDS)[number];

/** Where each kind's rows are and which column is the leaf's `id` (the movement id, the audit entry id). */
export const LEAF_SOURCES = {
  movement: { table: 'movements', key: 'id', idColumn: 'id', timeColumn: 'created_at' },
  audit: { table: 'audit_log', key: 'seq', idColumn: 'id', timeColumn: 'at' },
} as const satisfies Record<LeafKind, { table: keyof RegistryTables; key: string; idColumn: string; timeColumn: string }>;

/** A column value as the leaf carries it: bytes as {"$base64": …}, big integers as decimal text. */
function leafValue(value: unknown): string {
  // what rows hold most, first: canonicalJson writes text, numbers and NULL as JSON.stringify does
  if (typeof value === 'string' || typeof value === 'number') return JSON.stringify(value);
  if (value === null) return 'null';
  if (value instanceof Uint8Array) return `{"$base64":${JSON.stringify(Buffer.from(value).toString('base64'))}}`;
  if (typeof value === 'bigint') return JSON.stringify(value.toString());
  return canonicalJson(value);
}

type ColumnOrder = { column: string; prefix: string }[];
/** Per kind, the columns of the last row encoded and their `,"column":` prefixes in canonical (sorted) order. */
const columnOrders = new Map<LeafKind, { columns: string[]; order: ColumnOrder }>();

function columnOrder(kind: LeafKind, row: Record<string, unknown>): ColumnOrder {
  const columns = Object.keys(row);
  const known = columnOrders.get(kind);
  // a table's rows all have one set of columns, so this is a comparison of a few names per leaf
  if (known && known.columns.length === columns.length && known.columns.every((column, i) => column === columns[i])) return known.order;
  const order = [...columns].sort().map((column, i) => ({ column, prefix: `${i === 0 ? '' : ','}${JSON.stringify(column)}:` }));
  columnOrders.set(kind, { columns, order });
  return order;
}

/** The leaf's id: the movement's number in decimal, the audit entry's id. */
export function leafIdOf(kind: LeafKind, row: Record<string, unknown>): string {
  return String(row[LEAF_SOURCES[kind].idColumn]);
}

/**
 * The canonical text of a leaf for a stored row (its UTF-8 bytes are the leaf data): exactly
 * canonicalJson({ id, kind, row }), with the row's values as leafValue gives them, written out
 * directly (the top-level keys are already in order, the columns' order is cached) because every
 * ledger write encodes two of these.
 */
export function encodeLeaf(kind: LeafKind, row: Record<string, unknown>): string {
  let columns = '';
  for (const { column, prefix } of columnOrder(kind, row)) columns += prefix + leafValue(row[column]);
  return `{"id":${JSON.stringify(leafIdOf(kind, row))},"kind":${JSON.stringify(kind)},"row":{${columns}}}`;
}

/**
 * RFC 9162 leaf hash SHA-256(0x00 ‖ data), as hex: U+0000 is the one byte 0x00 in UTF-8, so this is
 * one call of Node's one-shot hash (a Hash object per leaf cost several times as much).
 */
export function leafHashHex(data: string): string {
  return hash('sha256', `\u0000${data}`, 'hex');
}

/** A leaf waiting for its transaction's end: its kind, the row's id, and its hash in hex. */
type NewLeaf = readonly [kind: LeafKind, ref: string, hash: string];
type Leaves = { leaves: string };
const LEAF_TUPLES = (leaves: readonly NewLeaf[]): Leaves => ({ leaves: JSON.stringify(leaves) });

// The statements that append a transaction's leaves, written once per transaction just before it
// commits (commit-batches.ts), in the order they were appended. Written as sql<…> templates: kysely
// cannot say jsonb_array_elements with its ordinal, nor a column's value as a subquery.
//
// SQLite: its write transaction excludes every other, so each leaf goes after the largest index
// stored (the log has no head row there: migration 0018; MAX of the primary key is one seek). One
// single-row insert per leaf, compiled once per connection: one statement over the leaves as a JSON
// array (json_each) cost more, as it parses the JSON and, reading the table it writes, fills a
// temporary table first (bench/README.md). A schema before 0018 (a migration test's older registry)
// still has its head, moved past them.
const insertAtEnd = (v: { kind: string; ref: string; hash: string }) => sql<never>`
  INSERT INTO tlog_leaves (idx, kind, ref, hash)
  VALUES ((SELECT COALESCE(MAX(idx) + 1, 0) FROM tlog_leaves), ${v.kind}, ${v.ref}, ${v.hash})`;
const moveHead = (v: { count: number }) => sql<never>`UPDATE tlog_head SET size = size + ${v.count} WHERE one = 1`;
// PostgreSQL: one call of tlog_append (migration 0020) for all of them, the leaves as one JSON array
// of [kind, ref, hash], sent with the COMMIT in the same round trip.
// Its head-row update takes the row's lock, held to the commit right after, which queues concurrent
// appends in commit order; a transaction that rolls back never got its indexes. The function keeps
// its statements' plans per connection, and fails when the log has no head row.
const appendWithCommit = (v: Record<string, string | number>) => sql<never>`SELECT tlog_append(${v.leaves}::jsonb)`;
// PostgreSQL before migration 0020 (a migration test's older registry): the same in one statement
const appendWithCommitBefore0020 = (v: Record<string, string | number>) => sql<never>`
  WITH head AS (UPDATE tlog_head SET size = size + ${v.count} WHERE one = 1 RETURNING size)
  INSERT INTO tlog_leaves (idx, kind, ref, hash)
  SELECT (SELECT size FROM head) - ${v.count} + e.ord - 1, e.leaf ->> 0, e.leaf ->> 1, e.leaf ->> 2
  FROM jsonb_array_elements(${v.leaves}::jsonb) WITH ORDINALITY AS e(leaf, ord)`;

/** A transaction's leaves, appended in the order its rows were written, as its last statement. */
const leafBatch: CommitBatch<NewLeaf, RegistryDb> = {
  write(db, leaves) {
    if (db.engine === 'postgres') {
      db.run(appendWithCommit(LEAF_TUPLES(leaves)));
      return;
    }
    const insert = db.prepared(insertAtEnd);
    for (const [kind, ref, hash] of leaves)
      if (insert.run({ kind, ref, hash }).changes !== 1)
        throw new Error('the transparency log took fewer leaves than its transaction wrote');
  },
  withCommit: {
    build: appendWithCommit,
    values: LEAF_TUPLES,
  },
};

/** PostgreSQL before migration 0020: no tlog_append yet. */
const postgresBatchBefore0020: CommitBatch<NewLeaf, RegistryDb> = {
  write(db, leaves) {
    if (db.run(appendWithCommitBefore0020({ ...LEAF_TUPLES(leaves), count: leaves.length })).changes !== leaves.length)
      throw new Error('the transparency log has no head row (migration 0014)');
  },
  withCommit: { build: appendWithCommitBefore0020, values: (leaves) => ({ ...LEAF_TUPLES(leaves), count: leaves.length }) },
};

/** SQLite before migration 0018: the leaves as leafBatch writes them, and the head moved past them. */
const leafBatchBefore0018: CommitBatch<NewLeaf, RegistryDb> = {
  write(db, leaves) {
    leafBatch.write(db, leaves);
    db.prepared(moveHead).run({ count: leaves.length });
  },
};

/** The batch for this database's schema: the latest, or an older one a migration test stands in for. */
function batchFor(ctx: RegistryContext): CommitBatch<NewLeaf, RegistryDb> {
  if (ctx.db.engine === 'sqlite') return hasTable(ctx, 'tlog_head') ? leafBatchBefore0018 : leafBatch;
  return hasLogAppendFunction(ctx) ? leafBatch : postgresBatchBefore0020;
}

/**
 * Whether this database has the log yet. A database below migration 0014 (only ever written by an
 * older registry, or by a migration test standing in for one) has none: its rows are appended when
 * migration 0014 runs.
 */
const logExists = (ctx: RegistryContext) => hasTable(ctx, 'tlog_leaves');

/**
 * Appends the leaf of one row just written, as the database answered it (the INSERT's RETURNING *),
 * in the caller's transaction: its hash only, the bytes being the row's encoding. The leaf is written
 * with the transaction's others just before it commits, in the order they were appended.
 */
export function appendLeaf(ctx: RegistryContext, kind: LeafKind, row: Record<string, unknown>): void {
  if (!logExists(ctx)) return;
  ctx.db.deferToCommit(batchFor(ctx), [kind, leafIdOf(kind, row), leafHashHex(encodeLeaf(kind, row))]);
}
