// Work a transaction leaves to its end (the transparency log's leaves, issue 29). Code inside a
// transaction adds items to a batch; just before the outermost transaction commits, each batch
// writes its items, in the order they were added, inside that transaction: one statement for the
// whole transaction instead of one per item, and on PostgreSQL in the COMMIT's own round trip.
// Items added inside a savepoint that rolls back go with it; a transaction that rolls back (or is
// run again after a serialization failure) drops them all.
import type { Compilable, RawBuilder } from 'kysely';
import { verbatimEnd } from './sql-text';

/** `Db`: the database seam (SyncDatabase), named by the caller so that this file need not import it. */
export interface CommitBatch<T, Db extends { q: unknown }> {
  /** Writes `items` (in order) with statements of its own, checking what they did. */
  write(db: Db, items: readonly T[]): void;
  /**
   * PostgreSQL: one statement that writes `items`, sent with the COMMIT in one round trip (its values
   * written into its text as literals). Nothing it answers can be checked there, so it must fail by
   * itself when it cannot write every item. Without it, `write` runs before the COMMIT.
   */
  withCommit?: CommitStatement<T, Db>;
}

export interface CommitStatement<T, Db extends { q: unknown }> {
  /** Defined once, at module level: it is the cache key of the compiled statement (as for `prepared`). */
  build(values: Record<string, string | number>, q: Db['q']): Compilable<unknown> | RawBuilder<unknown>;
  values(items: readonly T[]): Record<string, string | number>;
}

type AnyBatch<Db extends { q: unknown }> = CommitBatch<never, Db>;
/** How many items each batch held where a savepoint started. */
export type BatchMark = ReadonlyMap<object, number>;
const NOTHING: BatchMark = new Map();

/** The items each batch gathered in the running transaction. */
export class PendingBatches<Db extends { q: unknown }> {
  private readonly pending = new Map<AnyBatch<Db>, unknown[]>();

  add<T>(batch: CommitBatch<T, Db>, item: T): void {
    const items = this.pending.get(batch);
    if (items) items.push(item);
    else this.pending.set(batch, [item]);
  }

  mark(): BatchMark {
    if (this.pending.size === 0) return NOTHING;
    return new Map([...this.pending].map(([batch, items]) => [batch, items.length]));
  }

  /** Drops what was added since `mark` (a savepoint or a transaction rolled back). */
  rollbackTo(mark: BatchMark): void {
    for (const [batch, items] of this.pending) {
      const kept = mark.get(batch) ?? 0;
      if (kept === 0) this.pending.delete(batch);
      else items.length = kept;
    }
  }

  /** Every batch with its items, emptied here (they are written now or never). */
  take(): [AnyBatch<Db>, never[]][] {
    if (this.pending.size === 0) return [];
    const all = [...this.pending] as [AnyBatch<Db>, never[]][];
    this.pending.clear();
    return all;
  }

  clear(): void {
    this.pending.clear();
  }
}

/**
 * `sql` with each `$n` placeholder (outside quoted text and comments) replaced by its value as a literal: text
 * escaped by `escape` (libpq's PQescapeLiteral, which knows the connection's quoting rules), exact
 * integers in decimal. Any other value is refused rather than guessed at.
 */
export function inlineParameters(sql: string, values: readonly unknown[], escape: (text: string) => string): string {
  const literal = (n: number): string => {
    const value = values[n - 1];
    if (typeof value === 'string') return escape(value);
    if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
    throw new TypeError(`parameter $${n} of a statement sent with COMMIT is neither text nor an exact integer`);
  };
  let text = '';
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    const verbatim = verbatimEnd(sql, i);
    if (verbatim > i) {
      text += sql.slice(i, verbatim);
      i = verbatim;
    } else if (c === '$' && /\d/.test(sql[i + 1] ?? '') && !/[\w$]/.test(sql[i - 1] ?? '')) {
      const digits = /^\d+/.exec(sql.slice(i + 1))![0];
      text += literal(Number(digits));
      i += 1 + digits.length;
    } else {
      text += c;
      i += 1;
    }
  }
  return text;
}
