import { describe, expect, it } from 'vitest';
import type { IndexedDBMemoryTool } from '../../src/index.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { expectAgrees, indexCounts, tuneIndex } from '../helpers/index-oracle.js';
import { seededRandom } from '../helpers/seeded-random.js';

const open = toolsClosedAfterEach('index-oracle');

const WORDS = [
  'green', 'tea', 'greenhouse', 'coffee', 'Café', 'Crème', 'Zoë', 'zoe', 'useMemoryTree', 'snake_case', 'idb-memory',
  '緑茶', '私は緑茶が好きです。', 'the', 'a', 'morning', 'mornings', 'prefs', 'grape', 'great', 'Ünïcödé', 'ß',
];
const QUERIES = [
  'green', 'tea', 'green tea', '"green tea"', 'cafe creme', 'zoe', 'usememorytree', 'idb-memory', '緑茶', 'the',
  '"the morning"', 'great grape', 'nothing-here', 'ünicode', 'ss',
];
const PREFIXES = ['gr', 'morn', 'gre', 'z', 'th', 'idb-mem', '"green t'];

/** A small text of the vocabulary, a few lines. */
function text(random: () => number): string {
  const lines: string[] = [];
  const count = 1 + Math.floor(random() * 4);
  for (let l = 0; l < count; l++) {
    const words: string[] = [];
    const length = Math.floor(random() * 8);
    for (let w = 0; w < length; w++) words.push(WORDS[Math.floor(random() * WORDS.length)] ?? 'x');
    lines.push(words.join(' '));
  }
  return lines.join('\n');
}

/**
 * Two tools on one new database (two tabs), with small index bounds, so that chunks, the delta, its merges, scrubs
 * and many position segments all happen in a short sequence.
 */
async function tunedPair(history: { maxEntries: number } | false): Promise<[IndexedDBMemoryTool, IndexedDBMemoryTool]> {
  const tool = await open({ history });
  const other = await open({ dbName: tool.dbName, history });
  const tuning = { chunkBodies: 3, bucketPostings: 25, mergeThreshold: 30, mergeRows: 7, scrubDocs: 2, segmentBytes: 6 };
  tuneIndex(tool, tuning);
  tuneIndex(other, tuning);
  return [tool, other];
}

const pick = <T>(random: () => number, list: readonly T[]): T | undefined => list[Math.floor(random() * list.length)];

/** One random write through `tool` (or `other`, another tab); it may be refused, which changes nothing. */
async function step(
  random: () => number,
  tool: IndexedDBMemoryTool,
  other: IndexedDBMemoryTool,
  done: Set<string>,
): Promise<string> {
  const files = (await tool.list()).filter((entry) => entry.kind === 'file').map((entry) => entry.path);
  const some = pick(random, files);
  const dir = pick(random, ['/memories', '/memories/a', '/memories/b', '/memories/.hidden']) ?? '/memories';
  const fresh = `${dir}/f${Math.floor(random() * 12)}.md`;
  const roll = random();
  const by = random() < 0.5 ? tool : other;
  const attempt = async (what: string, run: () => Promise<unknown>): Promise<string> => {
    if (await run().then(() => true, () => false)) done.add(what.split(' ')[0] ?? what);
    return what;
  };
  if (roll < 0.3) return attempt(`create ${fresh}`, () => by.create({ command: 'create', path: fresh, file_text: text(random) }));
  if (roll < 0.42 && some) {
    return attempt(`insert ${some}`, () =>
      by.insert({ command: 'insert', path: some, insert_line: 0, insert_text: text(random) }),
    );
  }
  if (roll < 0.5 && some) {
    const old = await by.read(some).catch(() => '');
    return attempt(`str_replace ${some}`, () =>
      by.str_replace({ command: 'str_replace', path: some, old_str: old, new_str: text(random) }),
    );
  }
  if (roll < 0.58 && some) return attempt(`rename ${some}`, () => by.rename({ command: 'rename', old_path: some, new_path: fresh }));
  if (roll < 0.62) {
    return attempt(`rename ${dir}`, () => by.rename({ command: 'rename', old_path: dir, new_path: '/memories/c' }));
  }
  if (roll < 0.7 && some) return attempt(`delete ${some}`, () => by.delete({ command: 'delete', path: some }));
  if (roll < 0.8) return attempt('undo', () => by.undo());
  if (roll < 0.86) {
    const files = Object.fromEntries([1, 2].map((i) => [`/memories/b/imported${i}.md`, text(random)]));
    const bundle = JSON.stringify({
      format: 'claude-memory-bundle',
      version: 1,
      files: Object.entries(files).map(([path, content]) => ({ path, content })),
    });
    return attempt('import', () => by.importBundle(bundle));
  }
  if (roll < 0.89) return attempt('expire', () => by.expire({ olderThan: 0 }));
  if (roll < 0.95 && some) return attempt(`forget ${some}`, () => by.forget(some));
  if (roll < 0.97) return attempt('clearHistory', () => by.clearHistory());
  return attempt(`delete ${dir}`, () => by.delete({ command: 'delete', path: dir }));
}

describe('the search index', () => {
  it.each([1, 2, 3])(
    'answers exactly as reading every file does after each step of a random sequence of writes in two tabs (seed %i)',
    async (seed) => {
      const random = seededRandom(seed);
      const [tool, other] = await tunedPair({ maxEntries: 6 });
      const done = new Set<string>();
      for (let round = 0; round < 60; round++) {
        const did = await step(random, tool, other, done);
        const searcher = random() < 0.5 ? tool : other;
        const note = `seed ${seed} round ${round} after ${did}:`;
        const query = pick(random, QUERIES) ?? 'tea';
        await expectAgrees(searcher, query, {}, note);
        await expectAgrees(searcher, pick(random, PREFIXES) ?? 'gr', { prefix: true }, note);
        await expectAgrees(searcher, query, { path: '/memories/a', limit: 2 }, note).catch((error: unknown) => {
          // A scope that is not there is refused by both alike.
          if (!String(error).includes('does not exist')) throw error;
        });
      }
      // The sequence did write through each path (a refused step changes nothing and proves nothing).
      for (const kind of ['create', 'insert', 'str_replace', 'rename', 'delete', 'undo', 'import']) {
        expect(done, kind).toContain(kind);
      }
      const counts = await indexCounts(tool);
      expect(counts.searchTerms).toBeGreaterThan(0);
    },
  );

  it('answers exactly as reading every file does with the history off, where each write replaces the hidden totals record (seed 4)', async () => {
    // The live files are cached by the journal's last key alone: this holds it to every write moving that key.
    const random = seededRandom(4);
    const [tool, other] = await tunedPair(false);
    const done = new Set<string>();
    for (let round = 0; round < 40; round++) {
      const did = await step(random, tool, other, done);
      const searcher = random() < 0.5 ? tool : other;
      const note = `seed 4 (history off) round ${round} after ${did}:`;
      await expectAgrees(searcher, pick(random, QUERIES) ?? 'tea', {}, note);
      await expectAgrees(searcher, pick(random, PREFIXES) ?? 'gr', { prefix: true }, note);
    }
    for (const kind of ['create', 'insert', 'str_replace', 'rename', 'delete']) expect(done, kind).toContain(kind);
  });
});
