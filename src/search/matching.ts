// Where a clause occurs in a text's words, and BM25, the rank of a file for the clauses it holds (./README.md, "Rank").

import type { Clause } from './query.js';
import type { Token } from './tokens.js';

const holds = (term: string, want: string, prefix: boolean): boolean => (prefix ? term.startsWith(want) : term === want);

/**
 * How many times `clause` occurs in `tokens`, its words next to each other and in order, occurrences not overlapping;
 * `onMatch` hears each one's first and last token index.
 */
export function countClause(
  tokens: readonly Token[],
  clause: Clause,
  onMatch?: (first: number, last: number) => void,
): number {
  const { terms, prefix } = clause;
  const n = terms.length;
  let count = 0;
  for (let i = 0; i + n <= tokens.length; i++) {
    let j = 0;
    while (j < n && holds(tokens[i + j]?.term ?? '', terms[j] ?? '', prefix && j === n - 1)) j++;
    if (j < n) continue;
    count++;
    onMatch?.(i, i + n - 1);
    i += n - 1;
  }
  return count;
}

/** Okapi BM25's usual constants. */
export const BM25 = Object.freeze({ k1: 1.2, b: 0.75 });

/** How much a clause held by `df` of `files` files tells apart (BM25's IDF, never negative). */
export const inverseFrequency = (files: number, df: number): number => Math.log(1 + (files - df + 0.5) / (df + 0.5));

/**
 * One clause's part of a file's score: `count` occurrences in a file of `size` bytes, where files average `meanSize`.
 * Length is measured in UTF-8 bytes, which every file's entry carries, so ranking reads no text.
 */
export function clauseScore(count: number, idf: number, size: number, meanSize: number): number {
  const norm = 1 - BM25.b + (BM25.b * (meanSize > 0 ? size : 0)) / (meanSize > 0 ? meanSize : 1);
  return (idf * count * (BM25.k1 + 1)) / (count + BM25.k1 * norm);
}

/** Hit order: more of the query's clauses first, then the higher score, then the path. */
export function byRank(
  a: { matched: number; score: number; path: string },
  b: { matched: number; score: number; path: string },
): number {
  return b.matched - a.matched || b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}
