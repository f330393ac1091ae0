// `tool.search`: the query and options checked, the scope found, the index brought in step, then the search run from
// the index (or, while a big backlog is indexed behind it, by reading every file). Loaded on first use.

import { MemoryToolError } from '../core/errors.js';
import { normalizeMemoryPath, MEMORY_ROOT } from '../core/paths.js';
import { reply } from '../core/replies.js';
import { getEntry } from '../storage/entries.js';
import type { MemoryStore, MemoryTx } from '../storage/store.js';
import { READ_STORES } from '../storage/store.js';
import { indexSearch } from './index-query.js';
import { QUERY_STORES } from './index-stores.js';
import { parseQuery } from './query.js';
import { scanSearch } from './scan-search.js';
import { searchIndexOf } from './search-index.js';
import { defaultTokenizer } from './tokens.js';
import type { SearchOptions, SearchResult } from './types.js';

export { scrubIndex } from './index-scrub.js';

/** Runs a search; a bad query, limit or path is refused with a {@link MemoryToolError} before anything is read. */
export async function search(store: MemoryStore, query: unknown, options: SearchOptions = {}): Promise<SearchResult> {
  const signal = options.signal;
  signal?.throwIfAborted();
  const tokenizer = defaultTokenizer();
  const parsed = parseQuery(query, options, tokenizer);
  const shownPath = options.path ?? MEMORY_ROOT;
  const scope = normalizeMemoryPath(shownPath);
  const index = searchIndexOf(store, tokenizer);
  // An index that cannot be brought in step (a full disk) costs speed, not the answer: every file is read instead.
  const indexed = await index.catchUp(signal).catch((error: unknown) => {
    if (signal?.aborted) throw error;
    return false;
  });
  const inScope = async (tx: MemoryTx<'readonly'>): Promise<void> => {
    if (scope !== MEMORY_ROOT && !(await getEntry(tx, scope))) {
      throw new MemoryToolError('not_found', reply.viewMissing(shownPath));
    }
  };
  // The search resolves once its query's transaction has ended, not as soon as its last read answered: a write called
  // right after it would otherwise queue behind that transaction (both hold `bodies`) and wait for its end
  // (./README.md, "A write right after a search").
  const ends: Array<Promise<void>> = [];
  const ended = (tx: MemoryTx<'readonly'>): void => {
    ends.push(tx.done.catch(() => undefined));
  };
  // The bodies written since the drain (another tab) are cut in the query's own transaction.
  const fromIndex = indexed
    ? await store.run(
        'readonly',
        async (tx) => {
          ended(tx);
          await inScope(tx);
          return indexSearch(tx, parsed, scope, tokenizer, index.cache, index.tuning.syncBacklog, (pending) => {
            index.noteBacklog(pending);
          });
        },
        QUERY_STORES,
      )
    : undefined;
  const result =
    fromIndex ??
    (await store.run(
      'readonly',
      async (tx) => {
        ended(tx);
        await inScope(tx);
        return scanSearch(tx, parsed, scope, tokenizer);
      },
      READ_STORES,
    ));
  await Promise.all(ends);
  signal?.throwIfAborted();
  return result;
}
