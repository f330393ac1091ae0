// The Search rows in the page: queries over a memory of 10,000 files of prose (p50/p95 each), the first search and the
// time until whatever index search keeps holds every file, the index's size beside the text's, and a 10 KB `create` and `str_replace` with
// the index present against the same in a memory where search was never used, plus `create` then a search.

import type { IndexedDBMemoryTool } from '../../src/index.js';
import { BUNDLE_FORMAT, BUNDLE_VERSION } from '../../src/index.js';
import { bulkPath } from './fixtures.js';
import { measureSides, openMemory } from './harness.js';
import { deleteDatabase } from './raw.js';
import { proseMaker, searchQueries, vocabulary } from './search-fixtures.js';
import type { SearchPlan, SearchResults, SearchTimes } from './search-fixtures.js';

type Say = (line: string) => void;
const utf8 = new TextEncoder();

/** Bytes held by every store of `db` (keys and values; strings as UTF-8, numbers as 8, bytes as they are). */
async function storedBytes(db: IDBDatabase): Promise<number> {
  const size = (value: unknown): number => {
    if (typeof value === 'string') return utf8.encode(value).length;
    if (typeof value === 'number' || typeof value === 'boolean') return 8;
    if (value instanceof ArrayBuffer) return value.byteLength;
    if (ArrayBuffer.isView(value)) return value.byteLength;
    if (value instanceof Blob) return value.size;
    if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + size(item), 0);
    if (value instanceof Map) return [...value].reduce((sum, [k, v]) => sum + size(k) + size(v), 0);
    if (typeof value === 'object' && value !== null) {
      return Object.entries(value).reduce((sum, [k, v]) => sum + utf8.encode(k).length + size(v), 0);
    }
    return 0;
  };
  const stores = [...db.objectStoreNames];
  const tx = db.transaction(stores, 'readonly');
  const sizes = await Promise.all(
    stores.map(
      (store) =>
        new Promise<number>((resolve, reject) => {
          const os = tx.objectStore(store);
          const keys = os.getAllKeys();
          const values = os.getAll();
          values.onsuccess = () => resolve(size(keys.result) + size(values.result));
          values.onerror = () => reject(values.error ?? new Error(`cannot read ${store}`));
        }),
    ),
  );
  return sizes.reduce((sum, n) => sum + n, 0);
}

const usage = async (): Promise<number | undefined> => (await navigator.storage?.estimate?.())?.usage;

/**
 * Writes `files` files of prose under /memories/prose through the library (imports of 1,000 files), so their bodies
 * carry the library's ids: raw writes (raw.ts) use negative ids no index keyed by body id would take for new text.
 */
async function seedProse(tool: IndexedDBMemoryTool, plan: { files: number; bytes: number }, prose: (b: number, s: number) => string) {
  let textBytes = 0;
  for (let from = 0; from < plan.files; from += 1000) {
    const files = Array.from({ length: Math.min(1000, plan.files - from) }, (_, k) => {
      const content = prose(plan.bytes, from + k + 1);
      textBytes += content.length;
      return { path: bulkPath('/memories/prose', from + k), content };
    });
    await tool.importBundle(JSON.stringify({ format: BUNDLE_FORMAT, version: BUNDLE_VERSION, exportedAt: new Date().toISOString(), files, folders: [] }));
  }
  return textBytes;
}

/**
 * Waits until an index that builds in the background has taken every body and merged its delta: read from its
 * `searchState` and `searchDelta` stores (src/search/index-stores.ts, delta-buckets.ts) where there are some; at once
 * where there are none (search by reading every file). The merge runs after the watermark reaches the last body; a
 * query timed before it ends would wait for its transactions.
 */
async function indexSettled(db: IDBDatabase, say: Say): Promise<void> {
  const read = (): Promise<{ through: number; last: number; buckets: number; deltaRows: number } | undefined> =>
    new Promise((resolve, reject) => {
      if (!db.objectStoreNames.contains('searchState')) return resolve(undefined);
      const tx = db.transaction(['searchState', 'bodies', 'searchDelta'], 'readonly');
      const state = tx.objectStore('searchState').get('state');
      const last = tx.objectStore('bodies').openKeyCursor(null, 'prev');
      // Bucket rows are keyed [' ' + bucket, first body id]: left only while a build's delta is not merged yet.
      const buckets = tx.objectStore('searchDelta').count(IDBKeyRange.bound([' '], [' \uffff', Infinity]));
      tx.oncomplete = () => {
        const kept = state.result as { indexedThrough?: number; deltaRows?: number } | undefined;
        resolve({
          through: kept?.indexedThrough ?? 0,
          last: Number(last.result?.key ?? 0),
          buckets: buckets.result,
          deltaRows: kept?.deltaRows ?? 0,
        });
      };
      tx.onabort = () => reject(tx.error ?? new Error('cannot read the index state'));
    });
  const began = performance.now();
  const wait = (): Promise<unknown> => new Promise((resolve) => setTimeout(resolve, 250));
  let seen = await read();
  for (; seen && seen.through < seen.last; seen = await read()) {
    if (performance.now() - began > 15 * 60_000) throw new Error(`bench search: the index stopped at body ${seen.through} of ${seen.last}`);
    await wait();
  }
  const built = performance.now();
  // Over the merge threshold (src/search/index-stores.ts) a merge runs; under it none may (the delta stays), or one
  // is under way, taking the count down a bucket a transaction: done once the count holds still for two seconds.
  for (let still = 0; seen && (seen.deltaRows > 50_000 || still < 8); ) {
    if (performance.now() - began > 15 * 60_000) throw new Error(`bench search: the merge stopped with ${seen.deltaRows} delta runs`);
    await wait();
    const next = await read();
    still = next && next.deltaRows === seen.deltaRows && next.buckets === seen.buckets ? still + 1 : 0;
    seen = next;
  }
  if (seen) say(`  index built in ${((built - began) / 1000).toFixed(1)} s more, merged in ${((performance.now() - built) / 1000).toFixed(1)} s after`);
}
/**
 * Closes a memory and deletes its database, waiting longer than harness.ts does: after seconds of reading, WebKit
 * may still hold the library's connection; a database left behind in the bench's fresh profile harms nothing.
 */
async function closeMemory(memory: Awaited<ReturnType<typeof openMemory>>, name: string, say: Say): Promise<void> {
  memory.tool.close();
  memory.db.close();
  for (let attempt = 0; attempt < 10; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 200 * (attempt + 1)));
    try {
      await deleteDatabase(name);
      return;
    } catch {
      // Blocked by a connection still closing: wait longer.
    }
  }
  say(`  (database ${name} left behind: its deletion stayed blocked)`);
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

/** The Search rows of one engine. */
export async function runSearch(plan: SearchPlan, say: Say): Promise<SearchResults> {
  const words = vocabulary();
  const prose = proseMaker(words);
  if (plan.writesOnly) return { files: 0, textBytes: 0, rows: await writeRows(plan, prose, say), storedBefore: 0, storedAfter: 0, totals: {} };
  const rows: SearchTimes[] = [];
  const name = `search-${Date.now()}`;
  const memory = await openMemory(name);
  const totals: Record<string, number> = {};
  try {
    const textBytes = await seedProse(memory.tool, plan, prose);
    say(`search: ${plan.files} files, ${(textBytes / 1e6).toFixed(1)} MB of prose seeded`);
    const queries = searchQueries(words, prose(plan.bytes, 1));
    const storedBefore = await storedBytes(memory.db);
    const usageBefore = await usage();
    const first = queries[0];
    const firstMs = await timed(() => memory.tool.search(first?.query ?? 'the'));
    rows.push({ label: 'the first search', kind: 'first', ms: [firstMs] });
    const builtMs = await timed(() => indexSettled(memory.db, say));
    rows.push({ label: 'then until the index holds every file, merged', kind: 'first', ms: [firstMs + builtMs] });
    say(`  first search ${firstMs.toFixed(0)} ms`);
    for (const query of queries) {
      const options = query.prefix ? { prefix: true } : {};
      totals[query.label] = (await memory.tool.search(query.query, options)).total;
      const ms: number[] = [];
      for (let i = 0; i < plan.queryReps; i++) ms.push(await timed(() => memory.tool.search(query.query, options)));
      rows.push({ label: `${query.label} (${query.query})`, kind: 'query', ms });
      say(`  ${query.label} ${JSON.stringify(query.query)}: ${totals[query.label]} files, median ${[...ms].sort((a, b) => a - b)[ms.length >> 1]?.toFixed(1)} ms`);
    }
    // The stores are summed after the queries, not before: reading all 81 MB of them left Chromium's heap at 160-190 MB
    // (under 20 MB once collected) while the first queries ran, and a rare word's first runs took 2-6× its later ones.
    const storedAfter = await storedBytes(memory.db);
    const usageAfter = await usage();
    say(`  stored ${(storedBefore / 1e6).toFixed(1)} → ${(storedAfter / 1e6).toFixed(1)} MB`);
    await closeMemory(memory, name, say);
    rows.push(...(await writeRows(plan, prose, say)));
    return {
      files: plan.files,
      textBytes,
      rows,
      storedBefore,
      storedAfter,
      ...(usageBefore === undefined ? {} : { usageBefore }),
      ...(usageAfter === undefined ? {} : { usageAfter }),
      totals,
    };
  } catch (error) {
    await closeMemory(memory, name, say);
    throw error;
  }
}

/** The pause before each timed write of {@link writeRows}. */
const WRITE_PAUSE_MS = 50;

/**
 * A 10 KB `create` and `str_replace` in a memory whose index is present (searched, and searched again after each
 * write, untimed, so each write meets a drained index) against a memory where search was never used, in one loop.
 */
async function writeRows(plan: SearchPlan, prose: (b: number, s: number) => string, say: Say): Promise<SearchTimes[]> {
  const names = [`search-plain-${Date.now()}`, `search-indexed-${Date.now()}`] as const;
  const plain = await openMemory(names[0]);
  const indexed = await openMemory(names[1]);
  try {
    await seedProse(plain.tool, { files: plan.writeFiles, bytes: plan.bytes }, prose);
    await seedProse(indexed.tool, { files: plan.writeFiles, bytes: plan.bytes }, prose);
    await indexed.tool.search('the');
    await indexSettled(indexed.db, say);
    const text = (i: number) => `${prose(10 * 1024 - 40, 900_000 + i)}\nZqmarker${i} end`;
    const path = (i: number) => `/memories/new/w${i}.md`;
    const drain = (tool: IndexedDBMemoryTool) => tool.search('zqmarker0');
    const reps = { reps: plan.writeReps, warmup: 2 };
    // Each timed write follows a pause on both sides, a model turn's stand-in: Firefox writes fastest in the instant
    // after its last request, so a side that wrote just before (the plain one) would be timed at its best (README).
    const turn = () => new Promise<void>((resolve) => setTimeout(resolve, WRITE_PAUSE_MS));
    const create = (tool: IndexedDBMemoryTool, search: boolean) => ({
      before: turn,
      run: (i: number) => tool.create({ command: 'create', path: path(i), file_text: text(i) }),
      after: async (i: number) => {
        await tool.delete({ command: 'delete', path: path(i) });
        if (search) await drain(tool);
      },
    });
    const replace = (tool: IndexedDBMemoryTool, search: boolean) => ({
      before: async (i: number) => {
        await tool.create({ command: 'create', path: path(i), file_text: text(i) });
        if (search) await drain(tool);
        await turn();
      },
      run: (i: number) => tool.str_replace({ command: 'str_replace', path: path(i), old_str: `Zqmarker${i}`, new_str: 'replaced' }),
      after: create(tool, search).after,
    });
    const creates = await measureSides(reps, { plain: create(plain.tool, false), indexed: create(indexed.tool, true) });
    const replaces = await measureSides(reps, { plain: replace(plain.tool, false), indexed: replace(indexed.tool, true) });
    const thenSearch = await measureSides(reps, {
      createThenSearch: {
        run: async (i: number) => {
          await indexed.tool.create({ command: 'create', path: path(i), file_text: text(i) });
          await drain(indexed.tool);
        },
        after: create(indexed.tool, true).after,
      },
      searchAlone: { run: () => drain(indexed.tool) },
    });
    say(`  10 KB writes timed in two memories of ${plan.writeFiles} files`);
    return [
      { label: 'create 10 KB, search never used', kind: 'write', ms: creates.plain },
      { label: 'create 10 KB, index present', kind: 'write', ms: creates.indexed },
      { label: 'str_replace in 10 KB, search never used', kind: 'write', ms: replaces.plain },
      { label: 'str_replace in 10 KB, index present', kind: 'write', ms: replaces.indexed },
      { label: 'create 10 KB then a search', kind: 'write-search', ms: thenSearch.createThenSearch },
      { label: 'the same search alone', kind: 'write-search', ms: thenSearch.searchAlone },
    ];
  } finally {
    await closeMemory(plain, names[0], say);
    await closeMemory(indexed, names[1], say);
  }
}
