import { describe, expect, it } from 'vitest';
import { termPositions } from '../../src/search/index-drain.js';
import { countClause } from '../../src/search/matching.js';
import { RunWriter, countOf, countPhrase, countPhraseIn, decodeRun, encodeRun, positionsOf, scanCounts, scanRun } from '../../src/search/postings.js';
import type { Clause } from '../../src/search/query.js';
import { defaultTokenizer, pairsTokenizer } from '../../src/search/tokens.js';
import type { Tokenizer } from '../../src/search/tokens.js';
import { seededRandom } from '../helpers/seeded-random.js';

const scratch: number[][] = [[99, 98], [97]];

/** A clause counted from positions as the index does it: a prefix word's positions are those of every word it starts. */
function fromPositions(text: string, clause: Clause, tokenizer: Tokenizer): number {
  const byTerm = termPositions(text, tokenizer);
  const { terms, prefix } = clause;
  const lists = terms.map((term, j) => {
    if (!(prefix && j === terms.length - 1)) return byTerm.get(term) ?? [];
    return [...byTerm].filter(([word]) => word.startsWith(term)).flatMap(([, list]) => list).sort((a, b) => a - b);
  });
  // Stored and read back, so the varints are part of what is checked.
  const postings = lists.map((list) => {
    const run = new RunWriter();
    run.add(7, list);
    return decodeRun(run.done()).get(7);
  });
  const read = postings.map((posting) => (posting ? positionsOf(posting) : []));
  const counted = read.some((list) => list.length === 0) ? 0 : countPhrase(read);
  // The query's walk (pointers over reused arrays, as the index counts a phrase) counts the same, scratch dirty or not.
  expect(countPhraseIn(postings, scratch)).toBe(counted);
  return counted;
}

const WORDS = ['of', 'of', 'the', 'a', 'ab', 'abc', 'Of', 'x_1', '緑茶', 'が', '好き', 'tea', 'te', 'café', 'cafe', '9'];
const SEPS = [' ', ' ', '  ', '-', '.', '\n', ', ', '', '。'];

describe('phrases counted from stored word positions', () => {
  it('packs runs that read back the same ids, counts and positions, large gaps included', () => {
    const run = new RunWriter();
    run.add(3, [0, 1, 200, 70_000]);
    run.add(130, [5]);
    run.add(2 ** 31, [2 ** 28]);
    const postings = decodeRun(run.done());
    expect([...postings.keys()]).toEqual([3, 130, 2 ** 31]);
    const none = { count: 0, bytes: new Uint8Array(), start: 0, end: 0 };
    expect(positionsOf(postings.get(3) ?? none)).toEqual([0, 1, 200, 70_000]);
    expect(countOf(postings.get(130) ?? none)).toBe(1);
    expect(positionsOf(postings.get(2 ** 31) ?? none)).toEqual([2 ** 28]);
    // Re-encoded (as a merge does) in any order: the same bytes.
    expect([...encodeRun(new Map([...postings].reverse()))]).toEqual([...run.done()]);
  });

  it('walks a run handing over only the wanted bodies, with the positions a full decode gives them', () => {
    const run = new RunWriter();
    run.add(3, [0, 1, 200, 70_000]);
    run.add(130, [5, 9]);
    run.add(131, []);
    run.add(2 ** 31, [2 ** 28]);
    const packed = run.done();
    const seen: Array<[number, number, number[]]> = [];
    scanRun(packed, (id) => id !== 3 && id !== 131, (id, posting) => seen.push([id, posting.count, positionsOf(posting)]));
    expect(seen).toEqual([
      [130, 2, [5, 9]],
      [2 ** 31, 1, [2 ** 28]],
    ]);
    scanRun('an older format', () => true, () => expect.unreachable());
    const counts: Array<[number, number]> = [];
    scanCounts(packed, (id, count) => counts.push([id, count]));
    expect(counts).toEqual([[3, 4], [130, 2], [131, 0], [2 ** 31, 1]]);
  });

  it('counts repeated words without overlap, as the words do: "of of" in "of of of"', () => {
    expect(countPhrase([[0, 1, 2], [0, 1, 2]])).toBe(1);
    expect(countPhrase([[0, 1, 2, 3], [0, 1, 2, 3]])).toBe(2);
    expect(countPhrase([[0, 1, 2, 3, 4], [0, 1, 2, 3, 4], [0, 1, 2, 3, 4]])).toBe(1);
  });

  it('equals the count in the text on a seeded random corpus: repeats, prefixes, accents and CJK (seed in the message)', () => {
    for (const tokenizer of [defaultTokenizer(), pairsTokenizer]) {
      for (let seed = 1; seed <= 300; seed++) {
        const random = seededRandom(seed);
        const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
        let text = '';
        for (let i = 0; i < 40; i++) text += pick(WORDS) + pick(SEPS);
        const tokens = tokenizer.tokens(text);
        if (tokens.length < 3) continue;
        // A phrase taken from the text's own words (so it occurs), or made up.
        const n = 1 + Math.floor(random() * 3);
        const at = Math.floor(random() * (tokens.length - n));
        const terms = random() < 0.7
          ? tokens.slice(at, at + n).map((token) => token.term)
          : Array.from({ length: n }, () => tokenizer.tokens(pick(WORDS))[0]?.term ?? 'of');
        const prefix = random() < 0.4;
        if (prefix) terms[n - 1] = (terms[n - 1] ?? '').slice(0, 1 + Math.floor(random() * 2));
        const clause: Clause = { terms, prefix };
        expect(fromPositions(text, clause, tokenizer), `${tokenizer.id} seed ${seed}: ${JSON.stringify(clause)}`).toBe(
          countClause(tokens, clause),
        );
      }
    }
  });
});
