// Batched lookups by a list of ids with ONE cached statement whatever the list length: the ids are
// bound as a single JSON array and expanded by SQLite's json_each, so `IN (...)` never needs a
// statement per list size and a page of N rows costs one query per related table, not N.

/** SQL fragment to put after a column: `project_id ${IN_ID_LIST}`; bind `idListParam(ids)`. */
export const IN_ID_LIST = 'IN (SELECT value FROM json_each(?))';

export function idListParam(ids: readonly string[]): string {
  return JSON.stringify(ids);
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
