// One lock per memory database across the origin's tabs and workers (Web Locks): held while a connection is opened
// and while the database is compacted (./compact.ts), so no open finds it deleted half-way. Where there are no Web
// Locks (Node, old engines), one per process.

const held = new Map<string, Promise<unknown>>();

/** The lock's name for database `dbName`. */
export const storageLockName = (dbName: string): string => `idb-memory-tool:storage:${dbName}`;

/** Runs `task` holding the lock of `dbName`, after whoever holds it now. */
export async function withStorageLock<T>(dbName: string, task: () => Promise<T>): Promise<T> {
  const name = storageLockName(dbName);
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  if (locks) return locks.request(name, () => task()) as Promise<T>;
  const before = held.get(name);
  const run = (async () => {
    await before?.catch(() => undefined);
    return task();
  })();
  held.set(name, run);
  try {
    return await run;
  } finally {
    if (held.get(name) === run) held.delete(name);
  }
}
