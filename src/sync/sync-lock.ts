// One pass at a time per mount across every tab (Web Locks); where there are none (Node, old engines), one per
// process, which is one tab.

const held = new Map<string, Promise<unknown>>();

/**
 * Runs `task` holding the lock `name`. `wait: false` gives up at once when another tab holds it (answers `busy`);
 * otherwise it waits its turn.
 */
export async function withSyncLock<T>(name: string, wait: boolean, task: () => Promise<T>): Promise<{ done: T } | 'busy'> {
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  if (locks) {
    return locks.request(name, { ifAvailable: !wait }, async (lock) => (lock ? { done: await task() } : 'busy'));
  }
  const before = held.get(name);
  if (before && !wait) return 'busy';
  const run = (async () => {
    await before?.catch(() => undefined);
    return { done: await task() };
  })();
  held.set(name, run);
  try {
    return await run;
  } finally {
    if (held.get(name) === run) held.delete(name);
  }
}
