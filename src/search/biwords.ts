// Common-word pairs (biwords): each two neighbouring words that are both very common, indexed as one term with its
// count, so a phrase like `"other of"` is one posting lookup, not a walk of two long position lists (./README.md).

import type { Token } from './tokens.js';

/**
 * The words whose pairs are indexed: the most frequent words of English, and the commonest function words of French,
 * German and Spanish, folded as the tokenizer folds them (lower case, no accents). A fixed list, as in Lucene's
 * CommonGrams: the index stays a function of the bodies alone, and a phrase of other words, whose positions are short
 * lists, is counted from positions as before. Changing it changes the index's format (./index-stores.ts).
 */
export const COMMON_LIST =
  // English: the 100 most frequent words (the "first hundred" of frequency lists), then more function words.
  'the of and to a in is it you that he was for on are with as his they be at one have this from or had by hot word ' +
  'but what some we can out other were all there when up use your how said an each she which do their time if will ' +
  'way about many then them write would like so these her long make thing see him two has look more day could go ' +
  'come did number sound no most people my over know water than call first who may down side been now find ' +
  'i me our us its not any only new just also into after before because through where should while very such ' +
  'those own same both few must being here why again off under between against during without until ' +
  // French
  'le la les de des du un une et en est que qui dans pour pas au aux ce il elle sur se ne par plus avec son sa ' +
  // German
  'der die das und ist nicht den dem zu ein eine mit sich auf fur von im es ich auch wie ' +
  // Spanish
  'el los las y del se por con para una su al lo como mas pero sus le ya o este';

const COMMON_WORDS: readonly string[] = [...new Set(COMMON_LIST.split(' '))];
const COMMON: ReadonlyMap<string, number> = new Map(COMMON_WORDS.map((word, i) => [word, i]));

// A biword's term is `'@' + first + ' ' + second`: `@` and the space are no word characters, so no word, no prefix's
// range and no word's segment key holds one, and `@` sorts above every digit, with the delta's term rows.
const MARK = '@';

/** Whether `word` (folded) is one whose pairs are indexed. */
export const isCommon = (word: string): boolean => COMMON.has(word);

/** The term a pair of neighbouring words is indexed under. */
export const biwordOf = (first: string, second: string): string => MARK + first + ' ' + second;

/** Whether an index term is a biword (its postings are counts alone: it has no positions). */
export const isBiword = (term: string): boolean => term.startsWith(MARK);

/**
 * Each common-word pair of `tokens` and how often it occurs, occurrences not overlapping (`"of of"` in `of of of` is
 * once): exactly `countClause` of the two-word phrase, so the pair's count ranks it as the phrase.
 */
export function biwordCounts(tokens: readonly Token[]): Map<string, number> {
  const counts = new Map<string, number>();
  // Where the last counted occurrence of a pair ended (only a pair of one word twice can overlap itself).
  const free = new Map<string, number>();
  for (let i = 0; i + 1 < tokens.length; i++) {
    const first = tokens[i]?.term ?? '';
    const second = tokens[i + 1]?.term ?? '';
    if (!COMMON.has(first) || !COMMON.has(second)) continue;
    const term = biwordOf(first, second);
    if (first === second) {
      if (i < (free.get(term) ?? 0)) continue;
      free.set(term, i + 2);
    }
    counts.set(term, (counts.get(term) ?? 0) + 1);
  }
  return counts;
}

/** The biwords of a phrase's neighbouring words that are indexed (`prefix`: its last word may be a longer one's start). */
export function phraseBiwords(terms: readonly string[], prefix: boolean): string[] {
  const out: string[] = [];
  const last = prefix ? terms.length - 2 : terms.length - 1;
  for (let j = 0; j < last; j++) {
    const first = terms[j] ?? '';
    const second = terms[j + 1] ?? '';
    if (COMMON.has(first) && COMMON.has(second)) out.push(biwordOf(first, second));
  }
  return out;
}

/**
 * A body's biwords packed for its `searchDocs` record: two bytes a pair, each word's index in the list (fewer than 256
 * words). As strings they were most of what biwords added to the index (9.5 of 13.4 MB over the bench's 30 MB).
 */
export function packBiwords(terms: readonly string[]): Uint8Array {
  const out = new Uint8Array(terms.length * 2);
  terms.forEach((term, i) => {
    const space = term.indexOf(' ');
    out[2 * i] = COMMON.get(term.slice(1, space)) ?? 0;
    out[2 * i + 1] = COMMON.get(term.slice(space + 1)) ?? 0;
  });
  return out;
}

/** The biwords `packBiwords` packed. */
export function unpackBiwords(packed: Uint8Array | undefined): string[] {
  const out: string[] = [];
  if (!packed) return out;
  for (let i = 0; i + 1 < packed.length; i += 2) {
    out.push(biwordOf(COMMON_WORDS[packed[i] ?? 0] ?? '', COMMON_WORDS[packed[i + 1] ?? 0] ?? ''));
  }
  return out;
}
