// Runs tasks with at most `limit` under way, as a remote's concurrency allows; stops starting new ones once aborted.

/** Calls `task` for each item, at most `limit` at once; settles when all started ones have, rejecting on the first error. */
export async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (next < items.length && !failure && !signal?.aborted) {
      const item = items[next++] as T;
      try {
        await task(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failure) throw failure.error;
  signal?.throwIfAborted();
}
