// Batched lookups by a list of ids with ONE cached statement whatever the list length: the ids are
// bound as a single JSON array and expanded by SQLite's json_each (a function of that name on
// PostgreSQL, migration 0001), so `IN (...)` never needs a statement per list size and a page of N
// rows costs one query per related table, not N.
import { sql, type RawBuilder } from 'kysely';

/**
 * The ids as a subquery, for `IN`: `where('p.id', 'in', idList(ids))` in kysely, or
 * sql`p.id IN ${idList(ids)}` in a template.
 */
export function idList(ids: readonly string[]): RawBuilder<string> {
  return sql<string>`(SELECT value FROM json_each(${JSON.stringify(ids)}))`;
}

/** Groups rows by a key, keeping their order (the queries sort by position). */
export function groupBy<R, K>(rows: readonly R[], keyOf: (row: R) => K): Map<K, R[]> {
  const groups = new Map<K, R[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}
