// The search index of one open memory: keeping it in step with the bodies (drain, merge, scrub) before a query, and
// indexing a big backlog in the background meanwhile (./README.md, "The index").

import type { MemoryStore } from '../storage/store.js';
import { drainChunk } from './index-drain.js';
import { mergeIfFull } from './index-merge.js';
import { goneAfter, scrubIndex } from './index-scrub.js';
import { DEFAULT_TUNING, DRAIN_STORES, STATE_KEY, indexId } from './index-stores.js';
import type { IndexTuning } from './index-stores.js';
import { LiveFileCache } from './live-files.js';
import type { Tokenizer } from './tokens.js';

/** How often a page looks for bodies deleted from under the index (below). */
export const SCRUB_CHECK_MS = 60_000;
/** How long no search must have started before a step of that look runs (searches come in bursts, as typed). */
export const SCRUB_QUIET_MS = 1_000;

/** One memory's index as this page works on it. */
export class SearchIndex {
  readonly cache = new LiveFileCache();
  readonly tuning: IndexTuning;
  readonly #store: MemoryStore;
  readonly #tokenizer: Tokenizer;
  #running: Promise<void> | undefined;
  #scrubbing: Promise<void> | undefined;
  /** When this page last looked for bodies gone from under the index (0: not yet). */
  #checked = 0;
  /** When this page's last search started (a step of the look for gone bodies waits for a quiet moment). */
  #searched = 0;
  /** The live files' stamp at that look (../search/live-files.ts). */
  #checkedStamp = '';
  /** Whether this page's last query found no body above the watermark (the next may skip the catch-up). */
  #inStep = false;

  constructor(store: MemoryStore, tokenizer: Tokenizer, tuning: Partial<IndexTuning> = {}) {
    this.#store = store;
    this.#tokenizer = tokenizer;
    this.tuning = { ...DEFAULT_TUNING, ...tuning };
  }

  /**
   * Brings the index in step before a query: resolves true once it is (a small backlog is drained now), false when
   * the backlog is big (it is then indexed in the background, and the caller reads the files meanwhile).
   */
  async catchUp(signal?: AbortSignal): Promise<boolean> {
    this.#searched = Date.now();
    // In step at the last query: no catch-up transaction. The query counts the bodies above the watermark in its own
    // transaction and cuts them there (another tab's write), so the answer is still that of the files it reads.
    if (this.#inStep && !this.#running) {
      signal?.throwIfAborted();
      this.#scrubLater();
      return true;
    }
    if (this.#running) await this.#running.catch(() => undefined);
    signal?.throwIfAborted();
    const backlog = await this.#backlog();
    if (backlog > this.tuning.syncBacklog) {
      this.background();
      return false;
    }
    // Nothing to drain: no drain transaction (a readwrite one would queue behind every write), no merge check.
    if (backlog > 0) await this.#drain(signal);
    this.#scrubLater();
    return true;
  }

  /**
   * What a query found above the watermark: none, the next search skips the catch-up; a few, it drains them; more than
   * a query cuts (or an index to build again, `Infinity`), indexing starts in the background now.
   */
  noteBacklog(pending: number): void {
    this.#inStep = pending === 0;
    if (pending > this.tuning.syncBacklog) this.background();
  }

  /**
   * Looks for indexed bodies that are gone (trimmed history, a forget a closed page cut short) behind the answer: a
   * page's first search, then at most every {@link SCRUB_CHECK_MS}. Counting both stores reads them, too dear per query;
   * results stay right without it (a body no file names is never a hit), and forget() and clearHistory() scrub at once.
   */
  #scrubLater(): void {
    const now = Date.now();
    if (this.#scrubbing || (this.#checked !== 0 && now - this.#checked < SCRUB_CHECK_MS)) return;
    // A body is deleted only by a write, which moves the live files' stamp: unmoved since the last check, none is gone.
    const stamp = this.cache.stamp;
    if (this.#checked !== 0 && stamp === this.#checkedStamp) return;
    this.#checked = now;
    this.#checkedStamp = stamp;
    this.#scrubbing = (async () => {
      // A few hundred docs a transaction, each once no search has started for a moment: one count of every doc and
      // every body (Chromium walks the records to count them) held a query started meanwhile behind it for seconds,
      // and steps run between searches made the next ten searches wait on them (Firefox).
      for (let after: number | undefined; ; ) {
        for (let wait = this.#quiet(); wait > 0; wait = this.#quiet()) await new Promise((resolve) => setTimeout(resolve, wait));
        const step = await goneAfter(this.#store, after, this.tuning.checkDocs);
        if (step.gone) await scrubIndex(this.#store, this.tuning, this.#tokenizer);
        if (step.gone || step.last === undefined) break;
        after = step.last;
      }
    })()
      .catch(() => undefined)
      .finally(() => {
        this.#scrubbing = undefined;
      });
  }

  /** How long until no search will have started for {@link SCRUB_QUIET_MS} (0 or less: now). */
  #quiet(): number {
    return this.#searched + SCRUB_QUIET_MS - Date.now();
  }

  /** Starts indexing in the background, one chunk a transaction (commands go between them); once at a time. */
  background(): Promise<void> {
    this.#running ??= this.#drain(undefined, true).finally(() => {
      this.#running = undefined;
    });
    // A closed memory, or another failure, stops it; the next search starts again where it stopped.
    this.#running.catch(() => undefined);
    return this.#running;
  }

  /** Resolves once no background indexing or scrub is under way (for tests and benches). */
  async idle(): Promise<void> {
    while (this.#running || this.#scrubbing) await (this.#running ?? this.#scrubbing)?.catch(() => undefined);
  }

  async #drain(signal: AbortSignal | undefined, yielding = false): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      const indexed = await drainChunk(this.#store, this.#tokenizer, this.tuning);
      if (indexed === 0) break;
      // Let the page's other work run between chunks.
      if (yielding) await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await mergeIfFull(this.#store, this.tuning, signal);
  }

  #backlog(): Promise<number> {
    return this.#store.run(
      'readonly',
      async (tx) => {
        const state = await tx.objectStore('searchState').get(STATE_KEY);
        const through = state?.tokenizer === indexId(this.#tokenizer) ? state.indexedThrough : 0;
        return tx.objectStore('bodies').count(IDBKeyRange.lowerBound(through, true));
      },
      DRAIN_STORES,
    );
  }
}

const indexes = new WeakMap<MemoryStore, SearchIndex>();

/** The index of `store` (one per open store), made with `tuning` the first time. */
export function searchIndexOf(store: MemoryStore, tokenizer: Tokenizer, tuning?: Partial<IndexTuning>): SearchIndex {
  let index = indexes.get(store);
  if (!index) indexes.set(store, (index = new SearchIndex(store, tokenizer, tuning)));
  return index;
}
