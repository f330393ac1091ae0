import { describe, expect, it } from 'vitest';
import { segmentKey, segmentRange, segmentsHolding } from '../../src/search/position-segments.js';
import { scanCounts } from '../../src/search/postings.js';
import { internalsOf } from '../../src/tool/internals.js';
import type { IndexedDBMemoryTool } from '../../src/index.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { expectAgrees, indexIdle, tuneIndex } from '../helpers/index-oracle.js';

const open = toolsClosedAfterEach('position-segments');

const bounds = (ranges: readonly IDBKeyRange[]) => ranges.map((range) => [range.lower, range.upper]);

describe('segmentsHolding', () => {
  it('keeps only the segments holding a wanted body, neighbours joined, each term walked on its own', () => {
    const tea = [1, 10, 20, 30].map((first) => segmentKey('tea', first));
    const tee = [5, 25].map((first) => segmentKey('tee', first));
    expect(bounds(segmentsHolding(tea, [12, 35]))).toEqual([[tea[1], tea[1]], [tea[3], tea[3]]]);
    expect(bounds(segmentsHolding(tea, [2, 11, 21]))).toEqual([[tea[0], tea[2]]]);
    expect(bounds(segmentsHolding([...tea, ...tee], [3, 26]))).toEqual([[tea[0], tea[0]], [tea[2], tea[2]], [tee[1], tee[1]]]);
    expect(segmentsHolding(tea, [])).toEqual([]);
  });

  it('sorts segment keys as their first body ids', () => {
    const keys = [3, 40, 200, 1_000_000, 7].map((first) => segmentKey('of', first));
    expect([...keys].sort()).toEqual([3, 7, 40, 200, 1_000_000].map((first) => segmentKey('of', first)));
  });
});

/** Deletes the records of `searchTerms` in `range`. */
function deleteTerms(tool: IndexedDBMemoryTool, range: IDBKeyRange): Promise<void> {
  return internalsOf(tool).store.run('readwrite', (tx) => tx.objectStore('searchTerms').delete(range), ['searchTerms']);
}

/** The body ids each segment of `term` holds, by its key. */
async function segmentBodies(tool: IndexedDBMemoryTool, term: string): Promise<Array<[string, number[]]>> {
  return internalsOf(tool).store.run(
    'readonly',
    async (tx) => {
      const store = tx.objectStore('searchTerms');
      const [keys, runs] = await Promise.all([store.getAllKeys(segmentRange(term)), store.getAll(segmentRange(term))]);
      return keys.map((key, i) => {
        const ids: number[] = [];
        scanCounts(runs[i], (id) => ids.push(id));
        return [key, ids] as [string, number[]];
      });
    },
    ['searchTerms'],
  );
}

async function merged(): Promise<{ tool: IndexedDBMemoryTool; zebra: number }> {
  const tool = await open();
  // Tiny segments, and the delta merged at once: every word's positions are in several main segments.
  tuneIndex(tool, { segmentBytes: 4, mergeThreshold: 1 });
  for (let i = 0; i < 24; i++) {
    const text = `the green tea number ${i}\n${i === 13 ? 'a zebra tea here' : 'the tea is green'}`;
    await tool.create({ command: 'create', path: `/memories/n${i}.md`, file_text: text });
  }
  await tool.search('tea');
  await indexIdle(tool);
  const zebra = (await internalsOf(tool).store.run('readonly', (tx) => tx.objectStore('entries').get('/memories/n13.md'), ['entries']))?.bodyId;
  if (zebra === undefined) throw new Error('no body for n13');
  return { tool, zebra };
}

describe('the main positions in segments', () => {
  it('answers word queries from counts alone: with every position segment deleted, their answers are unchanged', async () => {
    const { tool } = await merged();
    expect((await segmentBodies(tool, 'tea')).length).toBeGreaterThan(3);
    const queries: Array<[string, { prefix?: boolean }]> = [['tea', {}], ['green tea', {}], ['the', {}], ['gr', { prefix: true }]];
    const before = await Promise.all(queries.map(([query, options]) => expectAgrees(tool, query, options)));
    await deleteTerms(tool, IDBKeyRange.bound(' ', ' \uffff'));
    for (const [i, [query, options]] of queries.entries()) expect(await tool.search(query, options)).toEqual(before[i]);
  });

  it('reads for a phrase only the segments holding bodies every word holds', async () => {
    const { tool, zebra } = await merged();
    const before = await expectAgrees(tool, '"zebra tea"');
    expect(before.hits.map((hit) => hit.path)).toEqual(['/memories/n13.md']);
    const segments = await segmentBodies(tool, 'tea');
    const holding = segments.filter(([, ids]) => ids.includes(zebra)).map(([key]) => key);
    expect(holding).toHaveLength(1);
    // Every other segment of `tea` gone: the phrase does not read them, so its answer is the same.
    for (const [key] of segments) if (!holding.includes(key)) await deleteTerms(tool, IDBKeyRange.only(key));
    expect(await tool.search('"zebra tea"')).toEqual(before);
    // The one it reads gone too: now it finds nothing (what it reads is these segments).
    for (const key of holding) await deleteTerms(tool, IDBKeyRange.only(key));
    expect((await tool.search('"zebra tea"')).total).toBe(0);
  });
});
