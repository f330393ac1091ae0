// A query's counts over the live files in one typed array, and the files holding a clause ranked straight from it as
// rankFiles ranks them: no object or map entry a posting or a file, only for the few hits kept (./README.md, "Speed").

import type { LiveFile } from './live-files.js';
import { clauseScore, inverseFrequency } from './matching.js';
import type { ParsedQuery } from './query.js';
import { shownHits } from './scan-search.js';
import type { FileStats, ShownTexts } from './scan-search.js';
import { TopHits } from './top-hits.js';
import type { SearchHit, SearchResult } from './types.js';

/** How often each live file (by its index among them) holds each clause, and the files met, in the order met. */
export class CountTable {
  #counts = new Int32Array(0);
  #met = new Uint8Array(0);
  readonly touched: number[] = [];

  constructor(readonly clauses: number) {}

  /** Makes room for `files` live files (before any count is added). */
  size(files: number): void {
    this.#counts = new Int32Array(files * this.clauses);
    this.#met = new Uint8Array(files);
  }

  /** Adds `count` occurrences of clause `clause` to file `file` (its index among the live files). */
  add(file: number, clause: number, count: number): void {
    if (this.#met[file] === 0) {
      this.#met[file] = 1;
      this.touched.push(file);
    }
    const at = file * this.clauses + clause;
    this.#counts[at] = (this.#counts[at] ?? 0) + count;
  }

  /** File `file`'s count of clause `clause`. */
  count(file: number, clause: number): number {
    return this.#counts[file * this.clauses + clause] ?? 0;
  }
}

/**
 * The ranked hits in `scope` of the files `table` counted, exactly as `rankFiles` ranks them (the same scores, summed
 * in the same order, and the same order of hits); `every`: the memory's statistics.
 */
export async function rankTable(
  files: readonly LiveFile[],
  table: CountTable,
  parsed: ParsedQuery,
  scope: string,
  textsOf: ShownTexts<LiveFile>,
  every: FileStats,
): Promise<SearchResult> {
  const { clauses, limit } = parsed;
  const n = clauses.length;
  const idf = clauses.map((_, i) => {
    let df = 0;
    for (const at of table.touched) if (table.count(at, i) > 0) df++;
    return inverseFrequency(every.count, df);
  });
  const ranked = new TopHits<Omit<SearchHit, 'lines'> & { file: LiveFile }>(limit);
  const folder = `${scope}/`;
  let total = 0;
  for (const at of table.touched) {
    const file = files[at];
    if (!file || !file.listed) continue;
    const { path } = file;
    if (path !== scope && !path.startsWith(folder)) continue;
    let matched = 0;
    let score = 0;
    for (let i = 0; i < n; i++) {
      const found = table.count(at, i);
      if (found === 0) continue;
      matched++;
      score += clauseScore(found, idf[i] ?? 0, file.size, every.meanSize);
    }
    if (matched === 0) continue;
    total++;
    // An object only for a hit that would be kept.
    if (ranked.admits(matched, score, path)) ranked.add({ path, score, matched, file });
  }
  return { hits: await shownHits(ranked.best, clauses, textsOf), total, clauses: n };
}
