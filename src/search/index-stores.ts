// The search index's stores as the index uses them: their names, its tunable bounds, and packed postings.

import type { StoreName } from '../storage/schema.js';

/** The index's own stores (../storage/schema.ts, version 7). */
export const INDEX_STORES: StoreName[] = ['searchDocs', 'searchDelta', 'searchTerms', 'searchState'];
/** A drain chunk reads bodies and writes the index in one transaction: holding `bodies` keeps it in step with them. */
export const DRAIN_STORES: StoreName[] = ['bodies', ...INDEX_STORES];
/** What a query reads: the files, the journal's end (the live-file cache's stamp) and the index. */
export const QUERY_STORES: StoreName[] = ['entries', 'bodies', 'journal', ...INDEX_STORES];

/** The key of the one `searchState` record. */
export const STATE_KEY = 'state';

/** Bounds of the index's work; tests lower them to exercise each path on a small memory. */
export interface IndexTuning {
  /** Bodies per drain transaction. */
  chunkBodies: number;
  /** UTF-16 code units of text per drain transaction (a chunk holds at least one body). */
  chunkChars: number;
  /** A chunk with more postings than this writes one packed run per term to the delta, not a row per posting. */
  directPostings: number;
  /** The delta is merged into the main postings once it holds more rows than this. */
  mergeThreshold: number;
  /** Delta rows moved per merge transaction. */
  mergeRows: number;
  /** Bodies whose index a scrub transaction removes. */
  scrubDocs: number;
  /** Unindexed bodies a search drains before answering; with more, it reads the files and indexing goes on behind. */
  syncBacklog: number;
}

export const DEFAULT_TUNING: Readonly<IndexTuning> = Object.freeze({
  chunkBodies: 256,
  chunkChars: 2_000_000,
  directPostings: 4096,
  mergeThreshold: 50_000,
  mergeRows: 20_000,
  scrubDocs: 64,
  syncBacklog: 512,
});

/** One term's postings while they are worked on: body id → count. */
export type Postings = Map<number, number>;

/** Postings packed as stored: `[bodyId, count, …]` sorted by body id. */
export function pack(postings: Postings): Uint32Array {
  const ids = [...postings.keys()].sort((a, b) => a - b);
  const packed = new Uint32Array(ids.length * 2);
  ids.forEach((id, i) => {
    packed[2 * i] = id;
    packed[2 * i + 1] = postings.get(id) ?? 0;
  });
  return packed;
}

/** Stored postings into `into` (added to what it holds), or a new map. */
export function unpack(packed: Uint32Array | undefined, into: Postings = new Map()): Postings {
  if (!packed) return into;
  for (let i = 0; i + 1 < packed.length; i += 2) {
    const id = packed[i] ?? 0;
    into.set(id, (into.get(id) ?? 0) + (packed[i + 1] ?? 0));
  }
  return into;
}

/**
 * A delta row's value into `into`: a count (one body's posting, keyed by its id) or a packed run (a big drain chunk's
 * postings of the term, keyed by the run's first body id, which no other row of the term can have).
 */
export function addDeltaRow(into: Postings, id: number, value: number | Uint32Array | undefined): Postings {
  if (typeof value === 'number') into.set(id, (into.get(id) ?? 0) + value);
  else unpack(value, into);
  return into;
}

/** The key range of every delta row of `term`. */
export const deltaRange = (term: string): IDBKeyRange => IDBKeyRange.bound([term], [term, Infinity]);

/** A key range holding every term that starts with `prefix` (terms are at most 64 code units, ../search/types.ts). */
export const prefixRange = (prefix: string): IDBKeyRange => IDBKeyRange.bound(prefix, prefix + '\uffff'.repeat(65));
