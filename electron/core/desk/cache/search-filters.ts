// The optional filters of a cache search: each one set adds its SQL condition and binds its named
// parameter, so the two cannot drift apart.
export interface SearchFilters {
  /** SQL conditions, to be joined with AND. */
  readonly conditions: string[];
  /** Named parameters for the statement (better-sqlite3's @name). */
  readonly params: Record<string, unknown>;
  add(condition: string, name: string, value: unknown): void;
}

export function searchFilters(params: Record<string, unknown> = {}): SearchFilters {
  const conditions: string[] = [];
  return {
    conditions,
    params,
    add(condition, name, value) {
      conditions.push(condition);
      params[name] = value;
    },
  };
}
