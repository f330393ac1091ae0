// One query word's stored postings as read, not decoded yet: its runs (main record, delta rows, bucket rows) and the
// postings of the bodies not indexed yet (the overlay), so a phrase can walk them for the few bodies it keeps.

import type { MemoryTx } from '../storage/store.js';
import { BUCKET_ROWS, bucketOf, bucketRange, unpackBucket } from './delta-buckets.js';
import { deltaRange, prefixRange } from './index-stores.js';
import { parseSegmentKey, segmentPrefixRange, segmentRange } from './position-segments.js';
import type { Posting, Postings } from './postings.js';
import { SEARCH_LIMITS } from './types.js';

/** Postings of the bodies above the watermark, cut in the query's own transaction: term → body id → posting. */
export type Overlay = Map<string, Postings>;

/**
 * A word's runs as stored and its overlay postings; a body in several (a prefix's words) has them chained. The main
 * records read are counts alone: a phrase reads the positions of the segments it needs afterwards (`segments`).
 */
export interface TermRuns {
  /** Every run: the main counts records, then the delta's. */
  runs: unknown[];
  /** The delta's runs alone (they carry positions). */
  delta: unknown[];
  extra: Array<[number, Posting]>;
  /** The runs' byte length: a phrase walks its rarest word first. */
  bytes: number;
  /** With `segments` asked: the keys of the main position segments of the word (or of the prefix's words kept). */
  segments: string[];
}

/**
 * One word's runs (or, `prefix`, those of the first words starting with it), from main, delta and overlay, the main
 * records' counts alone; `segments`: with the keys of the main records' position segments, for a phrase.
 */
export async function termRuns(
  tx: MemoryTx<'readonly'>,
  term: string,
  prefix: boolean,
  segments: boolean,
  overlayRead: Promise<Overlay | undefined>,
): Promise<TermRuns> {
  const main = tx.objectStore('searchTerms');
  const delta = tx.objectStore('searchDelta');
  const none = Promise.resolve<string[]>([]);
  if (!prefix) {
    const [packed, rows, buckets, keys, overlay] = await Promise.all([
      main.get(term),
      delta.getAll(deltaRange(term)),
      delta.getAll(bucketRange(bucketOf(term))),
      segments ? main.getAllKeys(segmentRange(term)) : none,
      overlayRead,
    ]);
    // An index this query cannot use (another format's): its records are not decoded.
    if (!overlay) return withBytes([], [], [], []);
    const runs: unknown[] = [...rows];
    for (const row of buckets) for (const [, run] of unpackBucket(row, (word) => word === term)) runs.push(run);
    return withBytes([packed], runs, [...(overlay.get(term) ?? [])], keys);
  }
  const most = SEARCH_LIMITS.maxPrefixTerms;
  const range = prefixRange(term);
  const deltaKeys = IDBKeyRange.bound([term], [term + '\uffff'.repeat(65), Infinity]);
  const [mainWords, mainLists, keys, rows, buckets, segmentKeys, overlay] = await Promise.all([
    main.getAllKeys(range, most),
    main.getAll(range, most),
    delta.getAllKeys(deltaKeys),
    delta.getAll(deltaKeys),
    // A word's bucket is a hash of it: a prefix's words may be in any (there are none once the delta is merged).
    delta.getAll(BUCKET_ROWS()),
    segments ? main.getAllKeys(segmentPrefixRange(term)) : none,
    overlayRead,
  ]);
  if (!overlay) return withBytes([], [], [], []);
  const bucketed = buckets.flatMap((row) => unpackBucket(row, (word) => word.startsWith(term)));
  const words = new Set(mainWords);
  for (const [word] of keys) words.add(word);
  for (const [word] of bucketed) words.add(word);
  for (const word of overlay.keys()) if (word.startsWith(term)) words.add(word);
  const kept = new Set([...words].filter((word) => word.startsWith(term)).sort(byCodeUnit).slice(0, most));
  const mainRuns: unknown[] = [];
  mainWords.forEach((word, i) => {
    if (kept.has(word)) mainRuns.push(mainLists[i]);
  });
  const deltaRuns: unknown[] = [];
  keys.forEach(([word], i) => {
    if (kept.has(word)) deltaRuns.push(rows[i]);
  });
  for (const [word, run] of bucketed) if (kept.has(word)) deltaRuns.push(run);
  const extra: Array<[number, Posting]> = [];
  for (const [word, list] of overlay) if (kept.has(word)) extra.push(...list);
  const keptSegments = segmentKeys.filter((key) => kept.has(parseSegmentKey(key).term));
  return withBytes(mainRuns, deltaRuns, extra, keptSegments);
}

function withBytes(main: unknown[], delta: unknown[], extra: Array<[number, Posting]>, segments: string[]): TermRuns {
  const runs = [...main, ...delta];
  let bytes = extra.length;
  for (const run of runs) if (run instanceof Uint8Array) bytes += run.length;
  return { runs, delta, extra, bytes, segments };
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
