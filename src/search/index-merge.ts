// The delta's postings moved into the main postings, a bounded batch a transaction; each batch deletes its delta rows
// and rewrites their terms' main records together, so a query finds every posting in one place or the other.

import type { MemoryStore } from '../storage/store.js';
import { addToMain } from './index-drain.js';
import type { IndexTuning, Postings } from './index-stores.js';

/** Merges the whole delta once it holds more than `tuning.mergeThreshold` rows; resolves to the rows moved. */
export async function mergeIfFull(store: MemoryStore, tuning: IndexTuning, signal?: AbortSignal): Promise<number> {
  const rows = await store.run('readonly', (tx) => tx.objectStore('searchDelta').count(), ['searchDelta']);
  if (rows <= tuning.mergeThreshold) return 0;
  let moved = 0;
  for (;;) {
    signal?.throwIfAborted();
    const batch = await mergeBatch(store, tuning.mergeRows);
    if (batch === 0) return moved;
    moved += batch;
  }
}

/** Moves the first `rows` delta rows (in key order) into the main postings; resolves to how many moved. */
function mergeBatch(store: MemoryStore, rows: number): Promise<number> {
  return store.run(
    'readwrite',
    async (tx) => {
      const delta = tx.objectStore('searchDelta');
      const [keys, counts] = await Promise.all([delta.getAllKeys(null, rows), delta.getAll(null, rows)]);
      const first = keys[0];
      const last = keys.at(-1);
      if (!first || !last) return 0;
      const byTerm = new Map<string, Postings>();
      keys.forEach(([term, id], i) => {
        let list = byTerm.get(term);
        if (!list) byTerm.set(term, (list = new Map()));
        list.set(id, counts[i] ?? 0);
      });
      await Promise.all([addToMain(tx, byTerm), delta.delete(IDBKeyRange.bound(first, last))]);
      return keys.length;
    },
    ['searchDelta', 'searchTerms'],
  );
}
