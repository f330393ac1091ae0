// A stand-in for the tool in the live-search tests: change events sent by hand (FakeMemory), and every search()
// held, with its query, options and signal, until the test answers it, so ordering is checked by what happened.

import type { SearchHit, SearchOptions, SearchResult } from '../../src/index.js';
import { FakeMemory } from './fake-memory.js';

export interface HeldSearch {
  readonly query: string;
  readonly options: SearchOptions;
  resolve(value: SearchResult): void;
  reject(error: unknown): void;
}

export class FakeSearch extends FakeMemory {
  /** Every search() call, in order, answered or not. */
  readonly searches: HeldSearch[] = [];

  search(query: string, options: SearchOptions = {}): Promise<SearchResult> {
    return new Promise((resolve, reject) => this.searches.push({ query, options, resolve, reject }));
  }
}

/** An answer of one hit per path, each with one line naming it. */
export function answer(...paths: string[]): SearchResult {
  const hits: SearchHit[] = paths.map((path) => ({ path, score: 1, matched: 1, lines: [{ line: 1, text: path, marks: [] }] }));
  return { hits, total: paths.length, clauses: 1 };
}
