// The delta's postings moved into the main postings, a bucket or a bounded batch a transaction; each deletes its delta
// rows and rewrites their terms' main records together, so a query finds every posting in one place or the other.

import type { MemoryStore } from '../storage/store.js';
import { addToMain } from './index-drain.js';
import { STATE_KEY } from './index-stores.js';
import type { IndexTuning } from './index-stores.js';
import { BUCKET_ROWS, TERM_ROWS, bucketRange, unpackBucket } from './delta-buckets.js';
import { decodeRun } from './postings.js';
import type { Postings } from './postings.js';

/**
 * Merges the whole delta once it holds more than `tuning.mergeThreshold` rows; resolves to the rows moved. The row
 * count is kept in `searchState` by every transaction that adds or moves rows: counting the store reads it (Chromium
 * walks the records), which cost more than a query at 10,000 files. A state without it (an index built before it was
 * kept) is counted once and the count stored.
 */
export async function mergeIfFull(store: MemoryStore, tuning: IndexTuning, signal?: AbortSignal): Promise<number> {
  const kept = await store.run(
    'readonly',
    async (tx) => (await tx.objectStore('searchState').get(STATE_KEY))?.deltaRows,
    ['searchState'],
  );
  const rows = kept ?? (await countRows(store));
  if (rows <= tuning.mergeThreshold) return 0;
  let moved = 0;
  // Bucket rows first, a bucket a transaction (every chunk's row of it: each of its words rewritten once), then the
  // rows of one term each, in bounded batches.
  for (;;) {
    signal?.throwIfAborted();
    const batch = await mergeBucket(store, tuning.segmentBytes);
    if (batch === undefined) break;
    moved += batch;
  }
  for (;;) {
    signal?.throwIfAborted();
    const batch = await mergeBatch(store, tuning.mergeRows, tuning.segmentBytes);
    moved += batch;
    if (batch < tuning.mergeRows) return moved;
  }
}

/** Moves every row of the first bucket into the main postings; resolves to the runs moved, undefined when none is left. */
function mergeBucket(store: MemoryStore, segmentBytes: number): Promise<number | undefined> {
  return store.run(
    'readwrite',
    async (tx) => {
      const delta = tx.objectStore('searchDelta');
      const [first] = await delta.getAllKeys(BUCKET_ROWS(), 1);
      if (!first) return undefined;
      const range = bucketRange(first[0]);
      const states = tx.objectStore('searchState');
      const [rows, state] = await Promise.all([delta.getAll(range), states.get(STATE_KEY)]);
      const byTerm = new Map<string, Postings>();
      let runs = 0;
      for (const row of rows) {
        for (const [term, run] of unpackBucket(row, () => true)) {
          let list = byTerm.get(term);
          if (!list) byTerm.set(term, (list = new Map()));
          decodeRun(run, list);
          runs++;
        }
      }
      const writes: Array<Promise<unknown>> = [addToMain(tx, byTerm, segmentBytes), delta.delete(range)];
      if (state?.deltaRows !== undefined) {
        writes.push(states.put({ ...state, deltaRows: Math.max(0, state.deltaRows - runs) }, STATE_KEY));
      }
      await Promise.all(writes);
      return runs;
    },
    ['searchDelta', 'searchTerms', 'searchState'],
  );
}

/** Counts the delta and keeps the count in the state (an index built before the count was kept). */
function countRows(store: MemoryStore): Promise<number> {
  return store.run(
    'readwrite',
    async (tx) => {
      const states = tx.objectStore('searchState');
      const [state, counted] = await Promise.all([states.get(STATE_KEY), tx.objectStore('searchDelta').count()]);
      if (state) await states.put({ ...state, deltaRows: counted }, STATE_KEY);
      return counted;
    },
    ['searchDelta', 'searchState'],
  );
}

/** Moves the first `rows` delta rows (in key order) into the main postings; resolves to how many moved. */
function mergeBatch(store: MemoryStore, rows: number, segmentBytes: number): Promise<number> {
  return store.run(
    'readwrite',
    async (tx) => {
      const delta = tx.objectStore('searchDelta');
      const states = tx.objectStore('searchState');
      const [keys, values, state] = await Promise.all([
        delta.getAllKeys(TERM_ROWS(), rows),
        delta.getAll(TERM_ROWS(), rows),
        states.get(STATE_KEY),
      ]);
      // Fewer rows than asked: the delta is now empty, whatever the kept count said.
      const left = keys.length < rows ? 0 : Math.max(0, (state?.deltaRows ?? keys.length) - keys.length);
      const writes: Array<Promise<unknown>> = [];
      if (state && state.deltaRows !== left) writes.push(states.put({ ...state, deltaRows: left }, STATE_KEY));
      const first = keys[0];
      const last = keys.at(-1);
      if (first && last) {
        const byTerm = new Map<string, Postings>();
        keys.forEach(([term], i) => {
          let list = byTerm.get(term);
          if (!list) byTerm.set(term, (list = new Map()));
          decodeRun(values[i], list);
        });
        writes.push(addToMain(tx, byTerm, segmentBytes), delta.delete(IDBKeyRange.bound(first, last)));
      }
      await Promise.all(writes);
      return keys.length;
    },
    ['searchDelta', 'searchTerms', 'searchState'],
  );
}
