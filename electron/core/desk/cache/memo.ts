// Answers that change only when the cache is written (facets, whole-table counts) are kept until
// the cache's version moves: this connection changed a row, or another connection committed.
// Callers get a copy, so nothing they do to it reaches the kept answer.

export type Memoized = <T>(key: string, compute: () => T) => T;

export function versionedMemo(cacheVersion: () => string): Memoized {
  const kept = new Map<string, { version: string; value: unknown }>();
  return <T>(key: string, compute: () => T): T => {
    const version = cacheVersion();
    const hit = kept.get(key);
    if (hit?.version === version) return structuredClone(hit.value as T);
    const value = compute();
    kept.set(key, { version, value });
    return structuredClone(value);
  };
}
