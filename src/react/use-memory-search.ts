// useMemorySearch: a live search for a React component, a thin hook over createMemorySearchStore.

import { useEffect, useMemo } from 'react';
import type { MemorySearchOptions, MemorySearchSnapshot, MemorySearchSource } from './memory-search-store.js';
import { createMemorySearchStore } from './memory-search-store.js';
import type { WithRefresh } from './use-live-store.js';
import { useLiveStore } from './use-live-store.js';

/**
 * The hits of `tool.search(query, options)` and the search's status, searched again when the memory changes (this
 * tab or another) and when `query` or `options` change; an older search is aborted, so its late answer never
 * replaces a newer one. A blank `query`, or no `tool`, searches nothing (`status: 'idle'`). A bad query is
 * `status: 'error'` with the `error`, never thrown. While a new query is searched, the previous answer stays
 * (`snapshot.query` says which query it answers). `refresh()` searches again now.
 *
 * @example
 * const { status, hits, total } = useMemorySearch(tool, text, { prefix: true });
 */
export function useMemorySearch(
  tool: MemorySearchSource | null | undefined,
  query: string,
  options: MemorySearchOptions = {},
): WithRefresh<MemorySearchSnapshot> {
  const { path, limit, prefix } = options;
  // One store per tool, made with the first query; later queries go through setQuery, so the previous answer shows
  // until the next one comes.
  const store = useMemo(() => createMemorySearchStore(tool, query, { path, limit, prefix }), [tool]);
  useEffect(() => store.setQuery(query, { path, limit, prefix }), [store, query, path, limit, prefix]);
  return useLiveStore(store);
}
