// A search query checked and cut into clauses: each word, and each quoted phrase, is one (./README.md, "Queries").

import { MemoryToolError } from '../core/errors.js';
import { describeValue } from '../core/shown-text.js';
import type { Tokenizer } from './tokens.js';
import type { SearchOptions } from './types.js';
import { SEARCH_LIMITS } from './types.js';

/**
 * One thing a file may hold: a word (`terms` of one), or words in this order (a quoted phrase, or a word the tokenizer
 * cut in several, such as `idb-memory` or `緑茶が好き`). `prefix`: its last word may be the start of a longer one.
 */
export interface Clause {
  terms: string[];
  prefix: boolean;
}

/** A query ready to run: its clauses, and the options checked. */
export interface ParsedQuery {
  clauses: Clause[];
  limit: number;
}

const invalid = (message: string) => new MemoryToolError('invalid_input', message);

/** Checks `query` and `options.limit`, and cuts the query into clauses; throws `invalid_input` saying what is wrong. */
export function parseQuery(query: unknown, options: SearchOptions, tokenizer: Tokenizer): ParsedQuery {
  if (typeof query !== 'string') throw invalid(`The search query must be a string, not ${describeValue(query)}.`);
  if (query.length > SEARCH_LIMITS.maxQueryChars) {
    throw invalid(
      `The search query is ${query.length} characters long; the most is ${SEARCH_LIMITS.maxQueryChars}. Search for fewer words.`,
    );
  }
  const limit = options.limit ?? SEARCH_LIMITS.defaultLimit;
  if (!Number.isInteger(limit) || limit < 1 || limit > SEARCH_LIMITS.maxLimit) {
    throw invalid(`The search limit must be a whole number from 1 to ${SEARCH_LIMITS.maxLimit}, not ${describeValue(limit)}.`);
  }
  if (query.trim() === '') throw invalid('The search query is empty: give the words to search for.');
  const clauses: Clause[] = [];
  const seen = new Set<string>();
  const add = (text: string): void => {
    const terms = tokenizer.tokens(text).map((token) => token.term);
    const key = terms.join(' ');
    if (terms.length === 0 || seen.has(key)) return;
    seen.add(key);
    clauses.push({ terms, prefix: false });
  };
  // `"a phrase"` is one clause; a quote left open runs to the end.
  const pieces = query.split('"');
  pieces.forEach((piece, i) => {
    if (i % 2 === 1) add(piece);
    else for (const word of piece.split(/\s+/u)) add(word);
  });
  if (clauses.length === 0) throw invalid(`The search query ${describeValue(query)} has no words to search for.`);
  if (clauses.length > SEARCH_LIMITS.maxClauses) {
    throw invalid(`The search query has ${clauses.length} words and phrases; the most is ${SEARCH_LIMITS.maxClauses}.`);
  }
  const last = clauses[clauses.length - 1];
  // As the person types: the word being typed (no space or quote after it yet) may be the start of a longer one.
  if (options.prefix === true && last && /[\p{L}\p{N}\p{M}_]$/u.test(query)) last.prefix = true;
  return { clauses, limit };
}
