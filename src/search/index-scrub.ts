// The scrub: the index entries of bodies that are gone (history trimmed, forgotten, cleared) removed from every
// index store, so no word of a deleted text stays in the index (./README.md, "Scrubbing").

import type { MemoryStore, MemoryTx } from '../storage/store.js';
import { DRAIN_STORES, INDEX_STORES, STATE_KEY, deltaRange, indexId } from './index-stores.js';
import type { IndexTuning } from './index-stores.js';
import { DEFAULT_TUNING } from './index-stores.js';
import { unpackBiwords } from './biwords.js';
import { bucketOf, bucketRange, packBucket, unpackBucket } from './delta-buckets.js';
import { readMain, writeMain } from './position-segments.js';
import { decodeRun, encodeRun } from './postings.js';
import { defaultTokenizer } from './tokens.js';
import type { Tokenizer } from './tokens.js';

/**
 * Whether a body is gone among the indexed ones after `after` (the first `most` docs of them): every body up to the
 * watermark has exactly one doc (ids only grow), so fewer bodies than docs in the docs' span means some are gone.
 * Resolves with the last doc id looked at, undefined when there was none.
 */
export async function goneAfter(
  store: MemoryStore,
  after: number | undefined,
  most: number,
): Promise<{ gone: boolean; last: number | undefined }> {
  return store.run(
    'readonly',
    async (tx) => {
      const range = after === undefined ? null : IDBKeyRange.lowerBound(after, true);
      const keys = await tx.objectStore('searchDocs').getAllKeys(range, most);
      const first = keys[0];
      const last = keys.at(-1);
      if (first === undefined || last === undefined) return { gone: false, last: undefined };
      const bodies = await tx.objectStore('bodies').count(IDBKeyRange.bound(first, last));
      return { gone: bodies !== keys.length, last };
    },
    ['bodies', 'searchDocs'],
  );
}

/**
 * Removes the index of every body that is gone, in bounded transactions; resolves to how many bodies. An index of
 * another tokenizer or format (which this build cannot read) is emptied whole: it is built again on the next search.
 */
export async function scrubIndex(
  store: MemoryStore,
  tuning: Pick<IndexTuning, 'scrubDocs' | 'segmentBytes'> = DEFAULT_TUNING,
  tokenizer: Tokenizer = defaultTokenizer(),
): Promise<number> {
  const current = await store.run(
    'readwrite',
    async (tx) => {
      const state = await tx.objectStore('searchState').get(STATE_KEY);
      if (!state || state.tokenizer === indexId(tokenizer)) return true;
      await Promise.all(INDEX_STORES.map((name) => tx.objectStore(name).clear()));
      return false;
    },
    INDEX_STORES,
  );
  if (!current) return 0;
  let scrubbed = 0;
  for (;;) {
    const batch = await store.run('readwrite', (tx) => scrubBatch(tx, tuning.scrubDocs, tuning.segmentBytes), DRAIN_STORES);
    scrubbed += batch;
    if (batch < tuning.scrubDocs) return scrubbed;
  }
}

async function scrubBatch(tx: MemoryTx<'readwrite'>, most: number, segmentBytes: number): Promise<number> {
  const docs = tx.objectStore('searchDocs');
  const [docIds, bodyIds] = await Promise.all([docs.getAllKeys(), tx.objectStore('bodies').getAllKeys()]);
  const there = new Set(bodyIds);
  const gone = docIds.filter((id) => !there.has(id)).slice(0, most);
  if (gone.length === 0) return 0;
  const records = await Promise.all(gone.map((id) => docs.get(id)));
  const byTerm = new Map<string, number[]>();
  gone.forEach((id, i) => {
    const record = records[i];
    for (const term of [...(record?.terms ?? []), ...unpackBiwords(record?.pairs)]) {
      const ids = byTerm.get(term);
      if (ids) ids.push(id);
      else byTerm.set(term, [id]);
    }
  });
  const writes: Array<Promise<unknown>> = gone.map((id) => docs.delete(id));
  const goneSet = new Set(gone);
  for (const name of new Set([...byTerm.keys()].map(bucketOf))) writes.push(scrubBucket(tx, name, goneSet));
  for (const [term, ids] of byTerm) {
    writes.push(scrubDelta(tx, term, new Set(ids)));
    writes.push(
      readMain(tx, term).then(async (postings) => {
        // A term only in the delta has no main records to rewrite.
        if (postings.size === 0) return;
        for (const id of ids) postings.delete(id);
        await Promise.all(writeMain(tx, term, postings, segmentBytes));
      }),
    );
  }
  await Promise.all(writes);
  return gone.length;
}

/** Removes bodies `gone` from `term`'s delta rows (packed runs). */
async function scrubDelta(tx: MemoryTx<'readwrite'>, term: string, gone: ReadonlySet<number>): Promise<void> {
  const delta = tx.objectStore('searchDelta');
  const [keys, values] = await Promise.all([delta.getAllKeys(deltaRange(term)), delta.getAll(deltaRange(term))]);
  const writes: Array<Promise<unknown>> = [];
  keys.forEach((key, i) => {
    const run = decodeRun(values[i]);
    if (![...run.keys()].some((id) => gone.has(id))) return;
    for (const id of gone) run.delete(id);
    // A run is keyed by its first body id: what is left goes under its own first id.
    writes.push(delta.delete(key));
    const first = Math.min(...run.keys());
    if (run.size > 0) writes.push(delta.put(encodeRun(run), [term, first]));
  });
  await Promise.all(writes);
}

/** Removes bodies `gone` from the runs of bucket `name`'s rows: only the rows whose chunk may hold one are read. */
async function scrubBucket(tx: MemoryTx<'readwrite'>, name: string, gone: ReadonlySet<number>): Promise<void> {
  const delta = tx.objectStore('searchDelta');
  const keys = await delta.getAllKeys(bucketRange(name));
  // A row holds bodies from its key's first id up to the next row's (chunks are drained in id order).
  const touched = keys.filter((key, i) => {
    const next = keys[i + 1]?.[1] ?? Infinity;
    return [...gone].some((id) => id >= key[1] && id < next);
  });
  const rows = await Promise.all(touched.map((key) => delta.get(key)));
  const writes: Array<Promise<unknown>> = [];
  touched.forEach((key, i) => {
    const kept: Array<[string, Uint8Array]> = [];
    for (const [term, run] of unpackBucket(rows[i], () => true)) {
      const postings = decodeRun(run);
      for (const id of gone) postings.delete(id);
      if (postings.size > 0) kept.push([term, encodeRun(postings)]);
    }
    writes.push(kept.length > 0 ? delta.put(packBucket(kept), key) : delta.delete(key));
  });
  await Promise.all(writes);
}
