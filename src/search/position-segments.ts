// A word's main positions cut in segments of consecutive bodies, each about `segmentBytes` long and keyed by the word
// and its first body id, so a phrase reads only the segments holding bodies that every word of it holds.

import type { MemoryTx } from '../storage/store.js';
import { isBiword } from './biwords.js';
import { RunWriter, decodeRun, encodeRun, positionsOf } from './postings.js';
import type { Postings } from './postings.js';

// Base 36, fixed width, so a string key sorts as its number: 36^11 is past every safe integer.
const ID_WIDTH = 11;

/**
 * The key of `term`'s segment whose first body is `first`: `' ' + term + ' ' + id`. A term is word characters only (no
 * space), so the counts record (under `term`) and another term's segments never fall in a term's range.
 */
export const segmentKey = (term: string, first: number): string =>
  ' ' + term + ' ' + first.toString(36).padStart(ID_WIDTH, '0');

/** Every segment of `term`. */
export const segmentRange = (term: string): IDBKeyRange => IDBKeyRange.bound(' ' + term + ' ', ' ' + term + ' \uffff');

/** Every segment of every term starting with `prefix` (terms are at most 64 code units). */
export const segmentPrefixRange = (prefix: string): IDBKeyRange =>
  IDBKeyRange.bound(' ' + prefix, ' ' + prefix + '\uffff'.repeat(66));

/** A segment key's term and first body id. */
export function parseSegmentKey(key: string): { term: string; first: number } {
  const space = key.lastIndexOf(' ');
  return { term: key.slice(1, space), first: parseInt(key.slice(space + 1), 36) };
}

type WriteTx = MemoryTx<'readwrite'>;

/** `term`'s main postings with their positions, from all its segments. */
export async function readMain(tx: WriteTx, term: string): Promise<Postings> {
  const merged: Postings = new Map();
  const terms = tx.objectStore('searchTerms');
  // A biword has no positions: its counts record is all of it.
  if (isBiword(term)) return decodeRun(await terms.get(term), merged);
  for (const run of await terms.getAll(segmentRange(term))) decodeRun(run, merged);
  return merged;
}

/**
 * Writes `term`'s main records anew from `postings`: its counts record (counts alone: what a word query reads) and its
 * positions cut in segments of about `segmentBytes`; none when it has no postings left. `stored` false: the term had
 * no main records (a build's merge), so there are none to delete first.
 */
export function writeMain(
  tx: WriteTx,
  term: string,
  postings: Postings,
  segmentBytes: number,
  stored = true,
): Array<Promise<unknown>> {
  const terms = tx.objectStore('searchTerms');
  const writes: Array<Promise<unknown>> = stored ? [terms.delete(segmentRange(term))] : [];
  if (postings.size === 0) return stored ? [...writes, terms.delete(term)] : writes;
  writes.push(terms.put(encodeRun(postings, false), term));
  if (isBiword(term)) return writes;
  let segment = new RunWriter();
  const close = (): void => {
    if (segment.first !== undefined) writes.push(terms.put(segment.done(), segmentKey(term, segment.first)));
  };
  for (const id of [...postings.keys()].sort((a, b) => a - b)) {
    const posting = postings.get(id);
    if (!posting) continue;
    if (posting.more) segment.add(id, positionsOf(posting));
    else segment.addPosting(id, posting);
    if (segment.length >= segmentBytes) {
      close();
      segment = new RunWriter();
    }
  }
  close();
  return writes;
}

/**
 * The key ranges of the segments (`keys`, sorted, of one or several terms) that may hold a body of `ids` (ascending):
 * a segment holds the bodies from its first id up to the next segment's of the same term. Neighbours are joined, so
 * a phrase of common words reads each word's segments in one `getAll`.
 */
export function segmentsHolding(keys: readonly string[], ids: readonly number[]): IDBKeyRange[] {
  const parsed = keys.map(parseSegmentKey);
  const ranges: IDBKeyRange[] = [];
  let from: string | undefined;
  let to: string | undefined;
  let at = 0;
  parsed.forEach(({ term, first }, i) => {
    const next = parsed[i + 1];
    const sameNext = next !== undefined && next.term === term;
    if (i === 0 || parsed[i - 1]?.term !== term) at = 0;
    while (at < ids.length && (ids[at] ?? 0) < first) at++;
    const needed = at < ids.length && (ids[at] ?? 0) < (sameNext ? next.first : Infinity);
    const key = keys[i] ?? '';
    if (needed) {
      from ??= key;
      to = key;
    }
    if ((!needed || !sameNext) && from !== undefined && to !== undefined) {
      ranges.push(IDBKeyRange.bound(from, to));
      from = to = undefined;
    }
  });
  return ranges;
}
