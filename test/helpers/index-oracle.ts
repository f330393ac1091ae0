// The search index held to its oracle: `tool.search` beside `scanSearch` (every file read) on the same database, and
// a dump of every store of a database, for the index's tests (test/search/index-*.test.ts).

import { expect } from 'vitest';
import type { IndexedDBMemoryTool, SearchOptions, SearchResult } from '../../src/index.js';
import { parseQuery } from '../../src/search/query.js';
import { scanSearch } from '../../src/search/scan-search.js';
import { searchIndexOf } from '../../src/search/search-index.js';
import type { IndexTuning } from '../../src/search/index-stores.js';
import { defaultTokenizer } from '../../src/search/tokens.js';
import { normalizeMemoryPath } from '../../src/core/paths.js';
import { READ_STORES } from '../../src/storage/store.js';
import { internalsOf } from '../../src/tool/internals.js';

/** Makes `tool`'s search index with `tuning` (before its first search). */
export function tuneIndex(tool: IndexedDBMemoryTool, tuning: Partial<IndexTuning>): void {
  searchIndexOf(internalsOf(tool).store, defaultTokenizer(), tuning);
}

/** Resolves once `tool`'s background indexing is over. */
export function indexIdle(tool: IndexedDBMemoryTool): Promise<void> {
  return searchIndexOf(internalsOf(tool).store, defaultTokenizer()).idle();
}

/** What reading every file answers. */
export async function scanned(tool: IndexedDBMemoryTool, query: string, options: SearchOptions = {}): Promise<SearchResult> {
  const tokenizer = defaultTokenizer();
  const parsed = parseQuery(query, options, tokenizer);
  const scope = normalizeMemoryPath(options.path ?? '/memories');
  return internalsOf(tool).store.run('readonly', (tx) => scanSearch(tx, parsed, scope, tokenizer), READ_STORES);
}

/** `tool.search` answers `query` as reading every file does: the same hits in order, lines and total; scores alike. */
export async function expectAgrees(
  tool: IndexedDBMemoryTool,
  query: string,
  options: SearchOptions = {},
  note = '',
): Promise<SearchResult> {
  const [got, want] = [await tool.search(query, options), await scanned(tool, query, options)];
  const label = `${note} query ${JSON.stringify(query)} ${JSON.stringify(options)}`;
  expect(got.total, label).toBe(want.total);
  expect(got.clauses, label).toBe(want.clauses);
  expect(
    got.hits.map(({ score: _, ...hit }) => hit),
    label,
  ).toEqual(want.hits.map(({ score: _, ...hit }) => hit));
  got.hits.forEach((hit, i) => expect(hit.score, label).toBeCloseTo(want.hits[i]?.score ?? NaN, 9));
  return got;
}

/** Every store of database `dbName`, keys and values, as one string (typed arrays as their numbers). */
export async function dumpDatabase(dbName: string): Promise<string> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open(dbName);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error ?? new Error('open failed'));
  });
  try {
    const names = [...db.objectStoreNames];
    const tx = db.transaction(names, 'readonly');
    const parts = await Promise.all(
      names.map(
        (name) =>
          new Promise<string>((resolve, reject) => {
            const store = tx.objectStore(name);
            const keys = store.getAllKeys();
            const values = store.getAll();
            values.onsuccess = () =>
              resolve(JSON.stringify([name, keys.result, values.result], (_key, value: unknown) =>
                // Packed bytes as characters too: a bucket row holds its words' code units as they are (ASCII).
                value instanceof Uint8Array
                  ? String.fromCharCode(...value)
                  : ArrayBuffer.isView(value) ? [...(value as Uint32Array)] : value,
              ));
            values.onerror = () => reject(values.error ?? new Error('read failed'));
          }),
      ),
    );
    return parts.join('\n');
  } finally {
    db.close();
  }
}

/** How many records each of the index's stores holds. */
export async function indexCounts(tool: IndexedDBMemoryTool): Promise<Record<string, number>> {
  const names = ['searchDocs', 'searchDelta', 'searchTerms'] as const;
  return internalsOf(tool).store.run(
    'readonly',
    async (tx) => {
      const counts = await Promise.all(names.map((name) => tx.objectStore(name).count()));
      return Object.fromEntries(names.map((name, i) => [name, counts[i] ?? 0]));
    },
    [...names],
  );
}
