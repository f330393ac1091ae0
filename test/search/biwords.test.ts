import { describe, expect, it } from 'vitest';
import { COMMON_LIST, biwordCounts, biwordOf, packBiwords, phraseBiwords, unpackBiwords } from '../../src/search/biwords.js';
import type { IndexTuning } from '../../src/search/index-stores.js';
import { countClause } from '../../src/search/matching.js';
import { defaultTokenizer } from '../../src/search/tokens.js';
import type { IndexedDBMemoryTool } from '../../src/index.js';
import { internalsOf } from '../../src/tool/internals.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { expectAgrees, indexIdle, tuneIndex } from '../helpers/index-oracle.js';
import { seededRandom } from '../helpers/seeded-random.js';

const open = toolsClosedAfterEach('biwords');
// Every word of the list, each next to the one after it: a pair of every word.
const LIST_TEXT = COMMON_LIST;

// Common words (their pairs indexed), repeated so `"of of"` and `"the the"` occur, and two that are not common.
const WORDS = ['the', 'The', 'of', 'of', 'other', 'a', 'and', 'is', 'zebra', 'teapot'];

/** Seeded text of `WORDS`, a few lines. */
function prose(random: () => number): string {
  const lines: string[] = [];
  const count = 1 + Math.floor(random() * 3);
  for (let l = 0; l < count; l++) {
    const length = Math.floor(random() * 14);
    lines.push(Array.from({ length }, () => WORDS[Math.floor(random() * WORDS.length)] ?? 'x').join(random() < 0.2 ? ', ' : ' '));
  }
  return lines.join('\n');
}

const PHRASES = [
  '"other of"', '"of of"', '"the the"', '"the of"', '"a and"', '"the zebra"', '"zebra of"',
  '"the of the"', '"of of of"', '"other of the"', '"the zebra of"', '"a the a the"', '"other of" the', '"other of" "of of"',
];

describe('biwords: pairs of common words', () => {
  it('counts a pair as the two-word phrase occurs, occurrences not overlapping (seed in the message)', () => {
    const tokenizer = defaultTokenizer();
    for (let seed = 1; seed <= 200; seed++) {
      const text = prose(seededRandom(seed));
      const tokens = tokenizer.tokens(text);
      const counts = biwordCounts(tokens);
      for (const first of ['the', 'of', 'other', 'a']) {
        for (const second of ['the', 'of', 'other', 'and']) {
          const want = countClause(tokens, { terms: [first, second], prefix: false });
          expect(counts.get(biwordOf(first, second)) ?? 0, `seed ${seed} "${first} ${second}" in ${JSON.stringify(text)}`).toBe(want);
        }
      }
      // A pair with a word that is not common is never indexed.
      expect([...counts.keys()].some((term) => term.includes('zebra')), `seed ${seed}`).toBe(false);
    }
  });

  it("packs a body's pairs for its doc record and reads them back, every word of the list included", () => {
    const words = 'the of other a mas fur der die que este'.split(' ');
    const pairs = words.flatMap((first) => words.map((second) => biwordOf(first, second)));
    expect(unpackBiwords(packBiwords(pairs))).toEqual(pairs);
    const every = [...biwordCounts(defaultTokenizer().tokens(LIST_TEXT)).keys()];
    expect(every.length).toBeGreaterThan(200);
    expect(unpackBiwords(packBiwords(every))).toEqual(every);
  });

  it('names the indexed pairs of a phrase, never with a prefix word', () => {
    expect(phraseBiwords(['the', 'zebra', 'of', 'the'], false)).toEqual([biwordOf('of', 'the')]);
    expect(phraseBiwords(['other', 'of', 'the'], true)).toEqual([biwordOf('other', 'of')]);
    expect(phraseBiwords(['other', 'of'], true)).toEqual([]);
  });

  const tunings: Array<[string, Partial<IndexTuning>]> = [
    ['delta rows', {}],
    ['bucket rows', { bucketPostings: 1, chunkBodies: 7 }],
    ['merged main records', { mergeThreshold: 1, segmentBytes: 16, chunkBodies: 5 }],
  ];
  it.each(tunings)('answers phrases of common words as reading every file does, from %s (seeded)', async (_name, tuning) => {
    const tool = await open();
    tuneIndex(tool, tuning);
    const random = seededRandom(33);
    for (let i = 0; i < 30; i++) {
      await tool.create({ command: 'create', path: `/memories/p${i % 24}.md`, file_text: prose(random) });
    }
    await tool.search('the');
    await indexIdle(tool);
    for (const query of PHRASES) await expectAgrees(tool, query, {}, `seed 33 ${_name}`);
    await expectAgrees(tool, '"other o', { prefix: true }, `seed 33 ${_name}`);
    await expectAgrees(tool, '"the of th', { prefix: true }, `seed 33 ${_name}`);
    // A write since: the next search drains it into the delta, and the answers still agree.
    await tool.create({ command: 'create', path: '/memories/late.md', file_text: 'other of other of the of of of' });
    for (const query of PHRASES) await expectAgrees(tool, query, {}, `seed 33 ${_name}, after a write`);
  });

  it("counts another tab's write not indexed yet (cut in the query's own transaction) in a pair's answer", async () => {
    const tool = await open();
    const other = await open({ dbName: tool.dbName });
    await tool.create({ command: 'create', path: '/memories/a.md', file_text: 'the other of the' });
    await expectAgrees(tool, '"other of"');
    // The page's last search found the index in step: the next one answers at once, the new body cut as it reads.
    await other.create({ command: 'create', path: '/memories/b.md', file_text: 'other of other of, of of of' });
    const got = await expectAgrees(tool, '"other of"');
    expect(got.total).toBe(2);
    await expectAgrees(tool, '"of of"');
    await expectAgrees(tool, '"other of other"');
  });

  it("answers a phrase of two common words from its pair alone: with both words' main records deleted, it is unchanged", async () => {
    const tool = await open();
    tuneIndex(tool, { mergeThreshold: 1, segmentBytes: 16 });
    const random = seededRandom(7);
    for (let i = 0; i < 20; i++) await tool.create({ command: 'create', path: `/memories/n${i}.md`, file_text: prose(random) });
    await tool.search('the');
    await indexIdle(tool);
    const before = await expectAgrees(tool, '"other of"');
    expect(before.total).toBeGreaterThan(0);
    await deleteWord(tool, 'other');
    await deleteWord(tool, 'of');
    expect(await tool.search('"other of"')).toEqual(before);
    // The words alone are gone: the deletion took, and only the pair answered the phrase.
    expect((await tool.search('other')).total).toBe(0);
  });
});

/** Deletes `word`'s main records: its counts record and its position segments. */
function deleteWord(tool: IndexedDBMemoryTool, word: string): Promise<void> {
  return internalsOf(tool).store.run(
    'readwrite',
    async (tx) => {
      const terms = tx.objectStore('searchTerms');
      await Promise.all([terms.delete(word), terms.delete(IDBKeyRange.bound(` ${word} `, ` ${word} \uffff`))]);
    },
    ['searchTerms'],
  );
}
