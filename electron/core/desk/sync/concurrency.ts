/**
 * Runs `worker` over `items` with at most `limit` in flight. The first failure stops new work
 * from starting and is thrown once the ones in flight have settled (so none writes after we return).
 */
export async function forEachLimited<T>(
  items: readonly T[],
  limit: number,
  worker: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async () => {
    while (failure === undefined && next < items.length) {
      const index = next++;
      try {
        await worker(items[index]!, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (failure) throw failure.error;
}
