// The benches' one percentile: nearest rank (the smallest value with at least p % of the samples at
// or below it), so every suite's p50, p95 and p99 mean the same thing.

/** The p-th percentile of `values` (any order; the array is not changed). NaN when there are none. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}
