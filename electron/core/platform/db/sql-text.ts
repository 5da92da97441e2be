// Reading SQL text as PostgreSQL does, for the code that rewrites it (postgres-sql.ts and
// commit-batches.ts): no imports, so either may use it without closing an import circle.

/**
 * Where the quoted text ('…' or "…") or `--` comment starting at `i` ends, to be copied unchanged by
 * whatever rewrites the SQL around it; `i` itself when none starts there.
 */
export function verbatimEnd(sql: string, i: number): number {
  const c = sql[i];
  if (c === "'" || c === '"') {
    const end = sql.indexOf(c, i + 1);
    return end < 0 ? sql.length : end + 1;
  }
  if (c === '-' && sql[i + 1] === '-') {
    const end = sql.indexOf('\n', i);
    return end < 0 ? sql.length : end;
  }
  return i;
}
