// The search index's stores as the index uses them: their names, its tunable bounds, its format's id, key ranges.

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
  /** A chunk with more postings than this writes its runs in bucket rows (./delta-buckets.ts), not a row per term. */
  bucketPostings: number;
  /** The delta is merged into the main postings once it holds more runs than this. */
  mergeThreshold: number;
  /** Delta rows moved per merge transaction. */
  mergeRows: number;
  /**
   * Bytes of positions a main segment holds before the next begins (./position-segments.ts). Past 64 KiB: Chromium
   * reads a value that big as a blob, several times faster than as many small values (./README.md, "Speed").
   */
  segmentBytes: number;
  /** Bodies whose index a scrub transaction removes. */
  scrubDocs: number;
  /** Docs a step of the look for bodies gone from under the index checks, each step a transaction of its own. */
  checkDocs: number;
  /** Unindexed bodies a search drains before answering; with more, it reads the files and indexing goes on behind. */
  syncBacklog: number;
}

export const DEFAULT_TUNING: Readonly<IndexTuning> = Object.freeze({
  chunkBodies: 256,
  chunkChars: 2_000_000,
  bucketPostings: 4096,
  mergeThreshold: 50_000,
  mergeRows: 20_000,
  segmentBytes: 96 * 1024,
  scrubDocs: 64,
  checkDocs: 256,
  syncBacklog: 512,
});

/**
 * The stored format's version, recorded with the tokenizer's id (`searchState.tokenizer`): an index of another format
 * is emptied and built again, and searches read the files meanwhile. 3: positional postings (./postings.ts), counts
 * apart; 4: the positions cut in segments by body id (./position-segments.ts); 5: common-word pairs (./biwords.ts).
 */
export const INDEX_FORMAT = 'biwords-5';

/** What the state record names the index by: its tokenizer and its format. */
export const indexId = (tokenizer: { readonly id: string }): string => `${tokenizer.id}/${INDEX_FORMAT}`;

/** The key range of every delta row of `term`. */
export const deltaRange = (term: string): IDBKeyRange => IDBKeyRange.bound([term], [term, Infinity]);

/** A key range holding every term that starts with `prefix` (terms are at most 64 code units, ../search/types.ts). */
export const prefixRange = (prefix: string): IDBKeyRange => IDBKeyRange.bound(prefix, prefix + '\uffff'.repeat(65));
