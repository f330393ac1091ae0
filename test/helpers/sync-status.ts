// Waiting on a sync's status as a page would: through subscribe(), never by polling.

import type { MemorySync } from '../../src/sync/memory-sync.js';
import type { SyncStatus } from '../../src/sync/sync-status.js';

/** Resolves with the first status that passes `test` (the current one included). */
export function statusWhere(sync: MemorySync, test: (status: SyncStatus) => boolean): Promise<SyncStatus> {
  return new Promise((resolve) => {
    if (test(sync.status())) return resolve(sync.status());
    const stop = sync.subscribe((status) => {
      if (!test(status)) return;
      stop();
      resolve(status);
    });
  });
}
