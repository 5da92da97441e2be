// The transparency log's leaves (docs/transparency.md): every ledger movement and every audit entry,
// appended in the transaction that writes it, in commit order. A leaf's bytes are the canonical JSON
// (keys sorted, no spaces, UTF-8) of {"id", "kind", "row"}, `row` being every column of the stored
// row as the database answers it: read back generically, so a column added later (the audit entry's
// bounded record) is covered without touching this file, and a row rewritten later no longer
// encodes to the bytes that were hashed. Only the leaf's hash is stored (migration 0015): the bytes
// are encoded again from the row whenever they are served or checked.
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { canonicalJson } from '@shared/canonical-json';
import type { RegistryContext } from '../context';
import { hasTable } from '../schema-probe';
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
  if (value instanceof Uint8Array) return `{"$base64":${JSON.stringify(Buffer.from(value).toString('base64'))}}`;
  if (typeof value === 'bigint') return JSON.stringify(value.toString());
  return canonicalJson(value);
}

/** The `"column":` prefixes of a row's columns in canonical (sorted) order, per set of columns. */
const columnOrders = new Map<string, { column: string; prefix: string }[]>();

function columnOrder(row: Record<string, unknown>): { column: string; prefix: string }[] {
  const columns = Object.keys(row);
  const signature = columns.join('\u0000');
  let order = columnOrders.get(signature);
  if (!order) {
    order = [...columns].sort().map((column) => ({ column, prefix: `${JSON.stringify(column)}:` }));
    // a table's rows all have one set of columns: a handful of entries, bounded in any case
    if (columnOrders.size < 64) columnOrders.set(signature, order);
  }
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
  for (const { column, prefix } of columnOrder(row)) columns += `${columns === '' ? '' : ','}${prefix}${leafValue(row[column])}`;
  return `{"id":${JSON.stringify(leafIdOf(kind, row))},"kind":${JSON.stringify(kind)},"row":{${columns}}}`;
}

/** RFC 9162 leaf hash SHA-256(0x00 ‖ data), as hex. */
export function leafHashHex(data: string): string {
  return createHash('sha256').update(Uint8Array.of(0)).update(data, 'utf8').digest('hex');
}

type Q = Kysely<RegistryTables>;
type NewLeaf = { kind: LeafKind; ref: string; hash: string };

// One statement on PostgreSQL (a round trip per leaf): the head's row lock, held to commit, queues
// concurrent appends in commit order; the index is the head's new size less one, and a rolled-back
// transaction gives it back with its leaf.
const appendOnPostgres = (v: NewLeaf) => sql<{ idx: number }>`
  WITH head AS (UPDATE tlog_head SET size = size + 1 WHERE one = 1 RETURNING size)
  INSERT INTO tlog_leaves (idx, kind, ref, hash) SELECT size - 1, ${v.kind}::text, ${v.ref}::text, ${v.hash}::text FROM head
  RETURNING idx`;
// SQLite cannot write in a WITH: two statements, in process (its write transaction excludes others),
// neither with RETURNING (which SQLite runs through a temporary table): the leaf at the head's size,
// then the head one further.
const insertAtHead = (v: NewLeaf, q: Q) =>
  q
    .insertInto('tlog_leaves')
    .columns(['idx', 'kind', 'ref', 'hash'])
    .expression((eb) =>
      eb
        .selectFrom('tlog_head')
        .select(['size as idx', eb.val(v.kind).as('kind'), eb.val(v.ref).as('ref'), eb.val(v.hash).as('hash')])
        .where('one', '=', 1),
    );
const bumpHead = (_v: Record<string, never>, q: Q) =>
  q
    .updateTable('tlog_head')
    .set((eb) => ({ size: eb('size', '+', 1) }))
    .where('one', '=', 1);
/**
 * Whether this database has the log yet. A database below migration 0014 (only ever written by an
 * older registry, or by a migration test standing in for one) has none: its rows are appended when
 * migration 0014 runs.
 */
const logExists = (ctx: RegistryContext) => hasTable(ctx, 'tlog_head');

/**
 * Appends the leaf of one row just written, as the database answered it (the INSERT's RETURNING *),
 * in the caller's transaction: its hash only, the bytes being the row's encoding.
 */
export function appendLeaf(ctx: RegistryContext, kind: LeafKind, row: Record<string, unknown>): void {
  if (!logExists(ctx)) return;
  const leaf: NewLeaf = { kind, ref: leafIdOf(kind, row), hash: leafHashHex(encodeLeaf(kind, row)) };
  const { db } = ctx;
  if (db.engine === 'postgres') {
    if (!db.prepared(appendOnPostgres).first(leaf)) throw new Error('the transparency log has no head row (migration 0014)');
    return;
  }
  if (db.prepared(insertAtHead).run(leaf).changes !== 1) throw new Error('the transparency log has no head row (migration 0014)');
  db.prepared(bumpHead).run({});
}
