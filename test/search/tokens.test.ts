import { describe, expect, it } from 'vitest';
import { defaultTokenizer, pairsTokenizer } from '../../src/search/tokens.js';
import { seededRandom } from '../helpers/seeded-random.js';

describe('cutting ASCII text into words', () => {
  it('cuts as the Unicode path does (seeded random text, long words included; seed in the failure message)', () => {
    for (const tokenizer of [defaultTokenizer(), pairsTokenizer]) {
      for (let seed = 1; seed <= 100; seed++) {
        const random = seededRandom(seed);
        const pieces = ['Tea', 'x_1', '42', 'a', 'Z'.repeat(70), 'idb-memory', ' ', '\n', '.', '__', '\t', '~'];
        let text = '';
        for (let i = 0; i < 30; i++) text += pieces[Math.floor(random() * pieces.length)] ?? '';
        // A non-ASCII word at the end sends the text down the Unicode path; its own word is dropped to compare.
        const unicode = tokenizer.tokens(`${text} é`).slice(0, -1);
        expect(tokenizer.tokens(text), `seed ${seed}`).toEqual(unicode);
      }
    }
  });
});
