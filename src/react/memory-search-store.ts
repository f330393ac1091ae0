// The live search: `tool.search(query)` run again when the memory changes or the query does, framework-free
// (./README.md, "The search store"). One search at a time; a new query aborts the one it replaces.

import { MEMORY_ROOT } from '../core/paths.js';
import type { SearchHit, SearchOptions, SearchResult } from '../search/types.js';
import { changesReaching } from './change-scope.js';
import type { MemoryChangeSource, MemorySnapshotStore } from './live-read.js';
import { subscribers } from './subscribers.js';

/** What the live search needs of the tool: `IndexedDBMemoryTool` has it, and so may a wrapper or a fake. */
export interface MemorySearchSource extends MemoryChangeSource {
  /** Finds the files matching `query`, best first; see `IndexedDBMemoryTool.search`. */
  search(query: string, options?: SearchOptions): Promise<SearchResult>;
}

/** The options of `tool.search` a live search takes; the store owns the `signal`. */
export interface MemorySearchOptions {
  /** The folder (or file) searched, default `/memories`. */
  path?: string | undefined;
  /** The most hits shown (default 20). */
  limit?: number | undefined;
  /** Also match the query's last word as a word's start, for results as the person types. */
  prefix?: boolean | undefined;
}

/**
 * The search as last answered. `status`: `idle` (no tool, or a blank query: nothing searched), `loading` (the first
 * search under way), `ready`, or `error` (the latest search failed: a bad query, say; `hits` stay those of the last
 * answer to the same query). `query` is the query the snapshot answers: while a new one is searched, the previous
 * answer stays, so typing does not flash an empty list.
 */
export type MemorySearchSnapshot =
  | {
      /** Nothing searched, the first search under way, or the answer is in. */
      readonly status: 'idle' | 'loading' | 'ready';
      /** The query these hits answer (while a new one is searched, still the previous). */
      readonly query: string;
      /** The best matching files, best first, at most `limit`. */
      readonly hits: readonly SearchHit[];
      /** Every matching file, beyond the `limit` shown. */
      readonly total: number;
      /** No error. */
      readonly error: undefined;
    }
  | {
      /** The latest search failed. */
      readonly status: 'error';
      /** The query that failed. */
      readonly query: string;
      /** The hits of the last answer to the same query, or none. */
      readonly hits: readonly SearchHit[];
      /** Every file matching in that answer. */
      readonly total: number;
      /** Why it failed: a bad query is a `MemoryToolError` with code `invalid_input`. */
      readonly error: Error;
    };

/** A live search: a snapshot store whose query can change (`setQuery`). */
export interface MemorySearchStore extends MemorySnapshotStore<MemorySearchSnapshot> {
  /**
   * Searches for `query` from now on (a blank one shows `idle`). The same query and options again change nothing;
   * another aborts the search under way for the previous one.
   */
  readonly setQuery: (query: string, options?: MemorySearchOptions) => void;
}

const NO_HITS: readonly SearchHit[] = Object.freeze([]);
const idle = (query: string): MemorySearchSnapshot => Object.freeze({ status: 'idle', query, hits: NO_HITS, total: 0, error: undefined });

const sameOptions = (a: MemorySearchOptions, b: MemorySearchOptions): boolean =>
  a.path === b.path && a.limit === b.limit && a.prefix === b.prefix;

/** The options for `tool.search`, with no key set to `undefined` (exactOptionalPropertyTypes). */
function searchOptions(options: MemorySearchOptions, signal: AbortSignal): SearchOptions {
  const out: SearchOptions = { signal };
  if (options.path !== undefined) out.path = options.path;
  if (options.limit !== undefined) out.limit = options.limit;
  if (options.prefix !== undefined) out.prefix = options.prefix;
  return out;
}

/**
 * A live search of `query` in the memory. Creating it does nothing; it searches while subscribed, again after each
 * change that reaches `options.path`, and again when `setQuery` gives a new query. With no tool, or a blank query,
 * it shows `idle` and searches nothing.
 */
export function createMemorySearchStore(
  tool: MemorySearchSource | null | undefined,
  query = '',
  options: MemorySearchOptions = {},
): MemorySearchStore {
  let current = { query, options: { ...options } };
  let affects = changesReaching(current.options.path ?? MEMORY_ROOT);
  let snapshot: MemorySearchSnapshot = idle(query);
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** The search under way: aborted when its query is replaced or nobody listens any more. */
  let running: AbortController | undefined;
  let searchAgain = false;

  const show = (next: MemorySearchSnapshot): void => {
    if (next === snapshot) return;
    snapshot = next;
    listeners.notify(next);
  };

  const blank = (): boolean => !tool || current.query.trim() === '';

  const schedule = (): void => {
    if (!listeners.listening() || blank()) return;
    if (running) searchAgain = true;
    // A task later, so the changes (or keystrokes) of one task make one search.
    else timer ??= setTimeout(() => void run(), 0);
  };

  const run = async (): Promise<void> => {
    timer = undefined;
    if (!tool || blank()) return;
    const asked = current;
    const controller = new AbortController();
    running = controller;
    if (snapshot.status === 'idle') show(Object.freeze({ status: 'loading', query: asked.query, hits: NO_HITS, total: 0, error: undefined }));
    let next: MemorySearchSnapshot;
    try {
      const { hits, total } = await tool.search(asked.query, searchOptions(asked.options, controller.signal));
      next = Object.freeze({ status: 'ready', query: asked.query, hits: Object.freeze(hits), total, error: undefined });
    } catch (thrown) {
      const error = thrown instanceof Error ? thrown : new Error(String(thrown));
      const kept = snapshot.query === asked.query ? snapshot : undefined;
      next = Object.freeze({ status: 'error', query: asked.query, hits: kept?.hits ?? NO_HITS, total: kept?.total ?? 0, error });
    }
    // Aborted: a newer query (or nobody) took its place, and its answer, even if one came, is not shown.
    if (controller.signal.aborted) return;
    running = undefined;
    show(next);
    if (searchAgain) {
      searchAgain = false;
      schedule();
    }
  };

  const abort = (): void => {
    clearTimeout(timer);
    timer = undefined;
    running?.abort();
    running = undefined;
    searchAgain = false;
  };

  const setQuery = (query: string, options: MemorySearchOptions = {}): void => {
    if (query === current.query && sameOptions(options, current.options)) return;
    current = { query, options: { ...options } };
    affects = changesReaching(current.options.path ?? MEMORY_ROOT);
    abort();
    if (blank()) show(idle(query));
    else schedule();
  };

  const listeners = subscribers<MemorySearchSnapshot>(tool ?? undefined, {
    heard: (event) => {
      if (affects(event)) schedule();
    },
    // The first search, or a fresh one: changes made while nobody listened were not heard.
    started: schedule,
    stopped: abort,
  });

  return { subscribe: listeners.subscribe, getSnapshot: () => snapshot, refresh: schedule, setQuery };
}
