// `tool.search`: the query and options checked, the scope found, then the search run (loaded on first use).

import { MemoryToolError } from '../core/errors.js';
import { normalizeMemoryPath, MEMORY_ROOT } from '../core/paths.js';
import { reply } from '../core/replies.js';
import { getEntry } from '../storage/entries.js';
import type { MemoryStore } from '../storage/store.js';
import { READ_STORES } from '../storage/store.js';
import { parseQuery } from './query.js';
import { scanSearch } from './scan-search.js';
import { defaultTokenizer } from './tokens.js';
import type { SearchOptions, SearchResult } from './types.js';

/** Runs a search; a bad query, limit or path is refused with a {@link MemoryToolError} before anything is read. */
export async function search(store: MemoryStore, query: unknown, options: SearchOptions = {}): Promise<SearchResult> {
  const signal = options.signal;
  signal?.throwIfAborted();
  const tokenizer = defaultTokenizer();
  const parsed = parseQuery(query, options, tokenizer);
  const shownPath = options.path ?? MEMORY_ROOT;
  const scope = normalizeMemoryPath(shownPath);
  const result = await store.run(
    'readonly',
    async (tx) => {
      if (scope !== MEMORY_ROOT && !(await getEntry(tx, scope))) {
        throw new MemoryToolError('not_found', reply.viewMissing(shownPath));
      }
      return scanSearch(tx, parsed, scope, tokenizer);
    },
    READ_STORES,
  );
  signal?.throwIfAborted();
  return result;
}
