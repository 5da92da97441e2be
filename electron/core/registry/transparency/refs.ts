// Finding a record's leaf (the lookup endpoint, a certificate's leaf index). PostgreSQL asks the
// leaves' own UNIQUE (kind, ref) index. SQLite has none since migration 0019, which spared every
// logged write its index pages: `tlog_refs` holds (kind, ref) → index for the leaves up to the last
// indexing, which each signed checkpoint does in one statement, and the leaves after it (a few
// seconds of writes) are scanned by index range. A lookup that finds more than TAIL_LIMIT leaves
// not yet indexed indexes them first, so no lookup scans more than that.
import { sql } from 'kysely';
import type { RegistryContext } from '../context';
import { hasTable } from '../schema-probe';
import type { LeafKind } from './leaf';

/** The most leaves a SQLite lookup scans beyond `tlog_refs` before indexing them. */
export const TAIL_LIMIT = 5_000;

type Ref = { kind: LeafKind; ref: string };

// The leaves not yet in tlog_refs start after its largest index (its primary key: one seek).
const refsEnd = sql<number>`(SELECT COALESCE(MAX(idx) + 1, 0) FROM tlog_refs)`;
const indexTail = () => sql<never>`
  INSERT OR IGNORE INTO tlog_refs (idx, kind, ref)
  SELECT idx, kind, ref FROM tlog_leaves WHERE idx >= ${refsEnd} ORDER BY idx`;
const tailLength = () => sql<{ n: number }>`SELECT (SELECT COALESCE(MAX(idx) + 1, 0) FROM tlog_leaves) - ${refsEnd} AS n`;
const sqliteLeafOf = (v: Ref) => sql<{ idx: number }>`
  SELECT idx FROM tlog_refs WHERE kind = ${v.kind} AND ref = ${v.ref}
  UNION ALL
  SELECT idx FROM tlog_leaves WHERE idx >= ${refsEnd} AND kind = ${v.kind} AND ref = ${v.ref}
  ORDER BY idx LIMIT 1`;
const leavesIndexLeafOf = (v: Ref, q: RegistryContext['db']['q']) =>
  q.selectFrom('tlog_leaves').select('idx').where('kind', '=', v.kind).where('ref', '=', v.ref);

/** SQLite from migration 0019 on; PostgreSQL (and SQLite before 0019) find leaves by the leaves' index. */
const hasRefs = (ctx: RegistryContext) => ctx.db.engine !== 'postgres' && hasTable(ctx, 'tlog_refs');

/**
 * SQLite: records every leaf not yet in `tlog_refs` (a checkpoint being signed, or a lookup past
 * TAIL_LIMIT). A record logged twice (only a hand-made insert can do that) keeps its first leaf
 * here; `admin verify-log` reports the second. PostgreSQL: nothing to do.
 */
export function indexLeafRefs(ctx: RegistryContext): void {
  if (!hasRefs(ctx)) return;
  ctx.db.transaction(() => ctx.db.prepared(indexTail).run({}));
}

/** The index of the leaf that logged this record, if it is logged (committed). */
export function leafIndexOf(ctx: RegistryContext, kind: LeafKind, ref: string): number | undefined {
  const { db } = ctx;
  if (!hasRefs(ctx)) {
    const leaf = db.prepared(leavesIndexLeafOf).first({ kind, ref });
    return leaf ? Number(leaf.idx) : undefined;
  }
  if (Number(db.prepared(tailLength).first({})?.n ?? 0) > TAIL_LIMIT) indexLeafRefs(ctx);
  const leaf = db.prepared(sqliteLeafOf).first({ kind, ref });
  return leaf ? Number(leaf.idx) : undefined;
}
