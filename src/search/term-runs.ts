// One query word's stored postings as read, not decoded yet: its runs (main record, delta rows, bucket rows) and the
// postings of the bodies not indexed yet (the overlay), so a phrase can walk them for the few bodies it keeps.

import type { MemoryTx } from '../storage/store.js';
import { BUCKET_ROWS, bucketOf, bucketRange, unpackBucket } from './delta-buckets.js';
import { deltaRange, mainKey, prefixRange } from './index-stores.js';
import type { Posting, Postings } from './postings.js';
import { SEARCH_LIMITS } from './types.js';

/** Postings of the bodies above the watermark, cut in the query's own transaction: term → body id → posting. */
export type Overlay = Map<string, Postings>;

/** A word's runs as stored and its overlay postings; a body in several (a prefix's words) has them chained. */
export interface TermRuns {
  runs: unknown[];
  extra: Array<[number, Posting]>;
  /** The runs' byte length: a phrase walks its rarest word first. */
  bytes: number;
}

/**
 * One word's runs (or, `prefix`, those of the first words starting with it), from main, delta and overlay;
 * `positions` false: the main record of counts alone (the delta's runs carry positions anyway).
 */
export async function termRuns(
  tx: MemoryTx<'readonly'>,
  term: string,
  prefix: boolean,
  positions: boolean,
  overlay: Overlay,
): Promise<TermRuns> {
  const main = tx.objectStore('searchTerms');
  const delta = tx.objectStore('searchDelta');
  if (!prefix) {
    const [packed, rows, buckets] = await Promise.all([
      main.get(mainKey(term, positions)),
      delta.getAll(deltaRange(term)),
      delta.getAll(bucketRange(bucketOf(term))),
    ]);
    const runs: unknown[] = [packed, ...rows];
    for (const row of buckets) for (const [, run] of unpackBucket(row, (word) => word === term)) runs.push(run);
    return withBytes(runs, [...(overlay.get(term) ?? [])]);
  }
  const most = SEARCH_LIMITS.maxPrefixTerms;
  const range = prefixRange(mainKey(term, positions));
  const deltaKeys = IDBKeyRange.bound([term], [term + '\uffff'.repeat(65), Infinity]);
  const [mainTerms, mainLists, keys, rows, buckets] = await Promise.all([
    main.getAllKeys(range, most),
    main.getAll(range, most),
    delta.getAllKeys(deltaKeys),
    delta.getAll(deltaKeys),
    // A word's bucket is a hash of it: a prefix's words may be in any (there are none once the delta is merged).
    delta.getAll(BUCKET_ROWS()),
  ]);
  const bucketed = buckets.flatMap((row) => unpackBucket(row, (word) => word.startsWith(term)));
  const mainWords = positions ? mainTerms.map((key) => key.slice(1)) : mainTerms;
  const words = new Set(mainWords);
  for (const [word] of keys) words.add(word);
  for (const [word] of bucketed) words.add(word);
  for (const word of overlay.keys()) if (word.startsWith(term)) words.add(word);
  const kept = new Set([...words].filter((word) => word.startsWith(term)).sort(byCodeUnit).slice(0, most));
  const runs: unknown[] = [];
  mainWords.forEach((word, i) => {
    if (kept.has(word)) runs.push(mainLists[i]);
  });
  keys.forEach(([word], i) => {
    if (kept.has(word)) runs.push(rows[i]);
  });
  for (const [word, run] of bucketed) if (kept.has(word)) runs.push(run);
  const extra: Array<[number, Posting]> = [];
  for (const [word, list] of overlay) if (kept.has(word)) extra.push(...list);
  return withBytes(runs, extra);
}

function withBytes(runs: unknown[], extra: Array<[number, Posting]>): TermRuns {
  let bytes = extra.length;
  for (const run of runs) if (run instanceof Uint8Array) bytes += run.length;
  return { runs, extra, bytes };
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
