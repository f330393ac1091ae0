// The drain: bodies above the index's watermark read, cut into words and indexed, one bounded transaction a chunk
// (./README.md, "The index").

import type { SearchStateRecord } from '../storage/schema.js';
import type { MemoryStore, MemoryTx } from '../storage/store.js';
import { DRAIN_STORES, STATE_KEY, indexId } from './index-stores.js';
import type { IndexTuning } from './index-stores.js';
import { bucketOf, packBucket } from './delta-buckets.js';
import { readMain, writeMain } from './position-segments.js';
import { biwordCounts, packBiwords } from './biwords.js';
import { RunWriter } from './postings.js';
import type { Postings } from './postings.js';
import type { Token, Tokenizer } from './tokens.js';

type WriteTx = MemoryTx<'readwrite'>;
type AnyTx = MemoryTx<'readonly'> | WriteTx;

/** The index's state, or a fresh one when there is none or it was built by another tokenizer or format. */
export async function readState(tx: AnyTx, tokenizer: Tokenizer): Promise<{ state: SearchStateRecord; fresh: boolean }> {
  const state = await tx.objectStore('searchState').get(STATE_KEY);
  const id = indexId(tokenizer);
  if (state && state.tokenizer === id) return { state, fresh: false };
  return { state: { tokenizer: id, indexedThrough: 0, deltaRows: 0 }, fresh: true };
}

/** Each unique word of `text` and its positions (indexes in the text's words), ascending. */
export function termPositions(text: string, tokenizer: Tokenizer): Map<string, number[]> {
  return tokenPositions(tokenizer.tokens(text));
}

/** Each unique word of `tokens` and its positions, ascending. */
function tokenPositions(tokens: readonly Token[]): Map<string, number[]> {
  const positions = new Map<string, number[]>();
  tokens.forEach((token, i) => {
    const list = positions.get(token.term);
    if (list) list.push(i);
    else positions.set(token.term, [i]);
  });
  return positions;
}

/**
 * A body's postings in `run`s (by term, created as needed): each word with its positions, each common-word pair
 * (./biwords.ts) with its count alone, of the terms `wanted` (all by default); resolves to its words and its pairs,
 * which its `searchDocs` record keeps.
 */
export function addBody(
  id: number,
  text: string,
  tokenizer: Tokenizer,
  runs: Map<string, RunWriter>,
  wanted: (term: string) => boolean = () => true,
): { words: string[]; pairs: string[] } {
  const tokens = tokenizer.tokens(text);
  const runOf = (term: string): RunWriter => {
    let run = runs.get(term);
    if (!run) runs.set(term, (run = new RunWriter()));
    return run;
  };
  const positions = tokenPositions(tokens);
  for (const [term, list] of positions) if (wanted(term)) runOf(term).add(id, list);
  const pairs = biwordCounts(tokens);
  for (const [term, count] of pairs) if (wanted(term)) runOf(term).addCount(id, count);
  return { words: [...positions.keys()], pairs: [...pairs.keys()] };
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
    // Another tokenizer's words or format (or none yet): start over from the first body.
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
  // Bodies come in ascending id order, so each term's run is appended to as it goes.
  const byTerm = new Map<string, RunWriter>();
  const docs = tx.objectStore('searchDocs');
  const writes: Array<Promise<unknown>> = [];
  let postings = 0;
  for (const { id, text } of read) {
    const { words, pairs } = addBody(id, text, tokenizer, byTerm);
    writes.push(docs.put(pairs.length > 0 ? { terms: words, pairs: packBiwords(pairs) } : { terms: words }, id));
    postings += words.length + pairs.length;
  }
  // One packed run per term, keyed by its first body id (no other row of the term can have it: a body is drained
  // once). Appending, never rewriting a long main record, keeps a build linear; the merge moves the runs into the main
  // postings once, at the end of the drain. A big chunk (a backlog) groups its runs in bucket rows: a put per distinct
  // word was most of a chunk's time (12,500 puts, 4 of 7 s, in Chromium).
  const delta = tx.objectStore('searchDelta');
  if (postings > tuning.bucketPostings) {
    const buckets = new Map<string, Array<[string, Uint8Array]>>();
    for (const [term, run] of byTerm) {
      const name = bucketOf(term);
      const list = buckets.get(name);
      if (list) list.push([term, run.done()]);
      else buckets.set(name, [[term, run.done()]]);
    }
    const first = read[0]?.id ?? 0;
    for (const [name, runs] of buckets) writes.push(delta.put(packBucket(runs), [name, first]));
  } else {
    for (const [term, run] of byTerm) writes.push(delta.put(run.done(), [term, run.first ?? 0]));
  }
  // Counted in runs (a bucket row holds many): the merge threshold is about how much a query may have to read.
  const rows = byTerm.size;
  const next: SearchStateRecord = { ...state, indexedThrough: last.id };
  if (state.deltaRows !== undefined) next.deltaRows = state.deltaRows + rows;
  writes.push(tx.objectStore('searchState').put(next, STATE_KEY));
  await Promise.all(writes);
  return read.length;
}

/** Adds `byTerm`'s postings to each term's main records (its counts, and its positions in segments). */
export async function addToMain(tx: WriteTx, byTerm: ReadonlyMap<string, Postings>, segmentBytes: number): Promise<void> {
  await Promise.all(
    [...byTerm].map(async ([term, list]) => {
      const merged = await readMain(tx, term);
      const stored = merged.size > 0;
      for (const [id, posting] of list) merged.set(id, posting);
      await Promise.all(writeMain(tx, term, merged, segmentBytes, stored));
    }),
  );
}
