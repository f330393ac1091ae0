// The drain: bodies above the index's watermark read, cut into words and indexed, one bounded transaction a chunk
// (./README.md, "The index").

import type { SearchStateRecord } from '../storage/schema.js';
import type { MemoryStore, MemoryTx } from '../storage/store.js';
import { DRAIN_STORES, STATE_KEY, pack, unpack } from './index-stores.js';
import type { IndexTuning, Postings } from './index-stores.js';
import type { Tokenizer } from './tokens.js';

type WriteTx = MemoryTx<'readwrite'>;
type AnyTx = MemoryTx<'readonly'> | WriteTx;

/** The index's state, or a fresh one when there is none or it was built by another tokenizer. */
export async function readState(tx: AnyTx, tokenizer: Tokenizer): Promise<{ state: SearchStateRecord; fresh: boolean }> {
  const state = await tx.objectStore('searchState').get(STATE_KEY);
  if (state && state.tokenizer === tokenizer.id) return { state, fresh: false };
  return { state: { tokenizer: tokenizer.id, indexedThrough: 0, deltaRows: 0 }, fresh: true };
}

/** Each unique word of `text` and how often it occurs. */
export function termCounts(text: string, tokenizer: Tokenizer): Map<string, number> {
  const counts = new Map<string, number>();
  for (const token of tokenizer.tokens(text)) counts.set(token.term, (counts.get(token.term) ?? 0) + 1);
  return counts;
}

/**
 * Indexes the next chunk of bodies above the watermark in one transaction; resolves to how many it indexed (0: the
 * index is in step with the bodies). An index built by another tokenizer is emptied first.
 */
export function drainChunk(store: MemoryStore, tokenizer: Tokenizer, tuning: IndexTuning): Promise<number> {
  return store.run('readwrite', (tx) => drainIn(tx, tokenizer, tuning), DRAIN_STORES);
}

async function drainIn(tx: WriteTx, tokenizer: Tokenizer, tuning: IndexTuning): Promise<number> {
  const { state, fresh } = await readState(tx, tokenizer);
  if (fresh) {
    // Another tokenizer's words (or none yet): start over from the first body.
    await Promise.all([
      tx.objectStore('searchDocs').clear(),
      tx.objectStore('searchDelta').clear(),
      tx.objectStore('searchTerms').clear(),
    ]);
  }
  const read: Array<{ id: number; text: string }> = [];
  let chars = 0;
  let cursor = await tx.objectStore('bodies').openCursor(IDBKeyRange.lowerBound(state.indexedThrough, true));
  while (cursor) {
    read.push({ id: cursor.key, text: cursor.value });
    chars += cursor.value.length;
    if (read.length >= tuning.chunkBodies || chars >= tuning.chunkChars) break;
    cursor = await cursor.continue();
  }
  const last = read.at(-1);
  if (!last) {
    if (fresh) await tx.objectStore('searchState').put(state, STATE_KEY);
    return 0;
  }
  const byTerm = new Map<string, Postings>();
  let postings = 0;
  const docs = tx.objectStore('searchDocs');
  const writes: Array<Promise<unknown>> = [];
  for (const { id, text } of read) {
    const counts = termCounts(text, tokenizer);
    writes.push(docs.put({ terms: [...counts.keys()] }, id));
    for (const [term, count] of counts) {
      let list = byTerm.get(term);
      if (!list) byTerm.set(term, (list = new Map()));
      list.set(id, count);
      postings++;
    }
  }
  // A big chunk (a backlog) writes one packed run per term: appending, never rewriting a long main record, keeps a
  // build linear; the merge moves the runs into the main postings once, at the end of the drain.
  const delta = tx.objectStore('searchDelta');
  let rows = 0;
  if (postings > tuning.directPostings) {
    for (const [term, list] of byTerm) {
      const run = pack(list);
      writes.push(delta.put(run, [term, run[0] ?? 0]));
      rows++;
    }
  } else {
    for (const [term, list] of byTerm) for (const [id, count] of list) writes.push(delta.put(count, [term, id]));
    rows = postings;
  }
  const next: SearchStateRecord = { ...state, indexedThrough: last.id };
  if (state.deltaRows !== undefined) next.deltaRows = state.deltaRows + rows;
  writes.push(tx.objectStore('searchState').put(next, STATE_KEY));
  await Promise.all(writes);
  return read.length;
}

/** Adds `byTerm`'s postings to each term's main record (a big chunk: cheaper than a delta row each). */
export async function addToMain(tx: WriteTx, byTerm: ReadonlyMap<string, Postings>): Promise<void> {
  const terms = tx.objectStore('searchTerms');
  await Promise.all(
    [...byTerm].map(async ([term, list]) => {
      const merged = unpack(await terms.get(term));
      for (const [id, count] of list) merged.set(id, (merged.get(id) ?? 0) + count);
      await terms.put(pack(merged), term);
    }),
  );
}
