import { describe, expect, it } from 'vitest';
import { countClause, countClauseInText } from '../../src/search/matching.js';
import type { Clause } from '../../src/search/query.js';
import { defaultTokenizer, pairsTokenizer } from '../../src/search/tokens.js';
import { SEARCH_LIMITS } from '../../src/search/types.js';
import { seededRandom } from '../helpers/seeded-random.js';

const cut = SEARCH_LIMITS.maxTermChars;
const byWords = (text: string, clause: Clause) => countClause(defaultTokenizer().tokens(text), clause);

describe('counting a phrase in ASCII text without cutting it into words', () => {
  it('counts as the words do at edges: repeats, case, digits, underscores, punctuation, prefixes', () => {
    const cases: Array<[string, Clause]> = [
      ['of of of of of', { terms: ['of', 'of'], prefix: false }],
      ['Other-OF the other of; other ofx other_of', { terms: ['other', 'of'], prefix: false }],
      ['snake_case x1 y2, x1  y2x x1\ny2', { terms: ['x1', 'y2'], prefix: false }],
      ['green teapot green tea green t', { terms: ['green', 'tea'], prefix: true }],
      ['agreen tea green tea_', { terms: ['green', 'tea'], prefix: false }],
      ['a.b.c a b c abc', { terms: ['a', 'b', 'c'], prefix: false }],
    ];
    for (const [text, clause] of cases) {
      expect(countClauseInText(text, clause, cut)).toBe(byWords(text, clause));
      expect(countClauseInText(text, clause, cut)).toBe(countClause(pairsTokenizer.tokens(text), clause));
    }
  });

  it('declines text or words it cannot count the same: non-ASCII, or words as long as the cut', () => {
    expect(countClauseInText('café crème', { terms: ['cafe', 'creme'], prefix: false }, cut)).toBeUndefined();
    expect(countClauseInText('green tea', { terms: ['grün', 'tea'], prefix: false }, cut)).toBeUndefined();
    const long = 'w'.repeat(cut);
    expect(countClauseInText(`${long}x tea`, { terms: [long, 'tea'], prefix: false }, cut)).toBeUndefined();
  });

  it('agrees with the words on seeded random ASCII text and phrases (seed in the failure message)', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const random = seededRandom(seed);
      const words = ['a', 'ab', 'abc', 'B', 'x_1', '9', 'of', 'Of'];
      const seps = [' ', '  ', '-', '.', '\n', '_', '', ', '];
      const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
      let text = '';
      for (let i = 0; i < 40; i++) text += pick(words) + pick(seps);
      const n = 2 + Math.floor(random() * 2);
      const terms = Array.from({ length: n }, () => pick(words).toLowerCase());
      const clause = { terms, prefix: random() < 0.5 };
      expect(countClauseInText(text, clause, cut), `seed ${seed}`).toBe(byWords(text, clause));
    }
  });
});
