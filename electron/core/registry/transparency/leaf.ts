// The transparency log's leaves (docs/transparency.md): every ledger movement and every audit entry,
// appended in the transaction that writes it, in commit order. A leaf's bytes are the canonical JSON
// (keys sorted, no spaces, UTF-8) of {"id", "kind", "row"}, `row` being every column of the stored
// row as the database answers it: read back generically, so a column added later (the audit entry's
// bounded record) is covered without touching this file, and a row rewritten later no longer
// encodes to the bytes that were hashed.
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../../../shared/canonical-json';
import type { RegistryContext } from '../context';
import { appendRows, type LeafWriter } from './backfill';

export const LEAF_KINDS = ['movement', 'audit'] as const;
export type LeafKind = (typeof LEAF_KINDS)[number];

/** Where each kind's rows are and which column is the leaf's `id` (the movement id, the audit entry id). */
export const LEAF_SOURCES: Record<LeafKind, { table: string; key: string; idColumn: string; timeColumn: string }> = {
  movement: { table: 'movements', key: 'id', idColumn: 'id', timeColumn: 'created_at' },
  audit: { table: 'audit_log', key: 'seq', idColumn: 'id', timeColumn: 'at' },
};

/** A column value as the leaf carries it: bytes as {"$base64": …}, big integers as decimal text. */
function leafValue(value: unknown): unknown {
  if (value instanceof Uint8Array) return { $base64: Buffer.from(value).toString('base64') };
  if (typeof value === 'bigint') return value.toString();
  return value;
}

/** The leaf's id: the movement's number in decimal, the audit entry's id. */
export function leafIdOf(kind: LeafKind, row: Record<string, unknown>): string {
  return String(row[LEAF_SOURCES[kind].idColumn]);
}

/** The canonical text of a leaf for a stored row (its UTF-8 bytes are the leaf data). */
export function encodeLeaf(kind: LeafKind, row: Record<string, unknown>): string {
  const stored = Object.fromEntries(Object.entries(row).map(([column, value]) => [column, leafValue(value)]));
  return canonicalJson({ id: leafIdOf(kind, row), kind, row: stored });
}

/** RFC 9162 leaf hash SHA-256(0x00 ‖ data), as hex. */
export function leafHashHex(data: string): string {
  return createHash('sha256').update(Uint8Array.of(0)).update(data, 'utf8').digest('hex');
}

export function writerOf(ctx: RegistryContext): LeafWriter {
  const { db } = ctx;
  return {
    all: (sql, ...values) => db.prepare(sql).all(...values) as Record<string, unknown>[],
    run: (sql, ...values) => void db.prepare(sql).run(...values),
  };
}

const hasLog = new WeakMap<object, boolean>();

/**
 * Whether this database has the log yet. A database below migration 0014 (only ever written by an
 * older registry, or by a migration test standing in for one) has none: its rows are appended when
 * migration 0014 runs.
 */
function logExists(ctx: RegistryContext): boolean {
  let exists = hasLog.get(ctx.db);
  if (exists === undefined) {
    const sql =
      ctx.db.engine === 'sqlite'
        ? `SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'tlog_head'`
        : `SELECT COUNT(*) AS n FROM pg_tables WHERE tablename = 'tlog_head' AND schemaname = current_schema()`;
    exists = Number((ctx.db.prepare(sql).get() as { n: number }).n) > 0;
    hasLog.set(ctx.db, exists);
  }
  return exists;
}

/** Appends the leaf of one row just written (by its key: the movement id, the audit seq). */
export function appendLeaf(ctx: RegistryContext, kind: LeafKind, key: number | string): void {
  if (!logExists(ctx)) return;
  const w = writerOf(ctx);
  const { table, key: keyColumn } = LEAF_SOURCES[kind];
  const rows = w.all(`SELECT * FROM ${table} WHERE ${keyColumn} = ?`, key);
  if (rows.length !== 1) throw new Error(`no ${kind} ${key} to log`);
  appendRows(w, [{ kind, row: rows[0]! }]);
}
