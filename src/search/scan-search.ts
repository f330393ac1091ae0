// Search by reading every file: the reference the index is held to, and what answers where there is no index.

import { isHiddenName } from '../core/paths.js';
import { readBody } from '../storage/entries.js';
import type { EntryRecord } from '../storage/schema.js';
import type { MemoryTx } from '../storage/store.js';
import { matchedLines } from './lines.js';
import { clauseScore, countClause, inverseFrequency } from './matching.js';
import type { ParsedQuery } from './query.js';
import { TopHits } from './top-hits.js';
import type { Token, Tokenizer } from './tokens.js';
import type { SearchHit, SearchResult } from './types.js';

/** A file as ranking sees it: where it is, its size, and how often it holds each clause. */
export interface FileCounts {
  path: string;
  size: number;
  counts: number[];
  /** Whether `view` lists it ({@link isListed}), where the caller knows already (cached with the live files). */
  listed?: boolean;
}

/** Whether Claude's `view` would list `key` (no dot-name or `node_modules` below `/memories`). */
export const isListed = (key: string): boolean => !key.split('/').slice(2).some(isHiddenName);

/** How many files the memory has and their mean size: BM25's N and mean length. */
export interface FileStats {
  count: number;
  meanSize: number;
}

/** The statistics of `files`, every file of the memory. */
export const fileStats = (files: ReadonlyArray<{ size: number }>): FileStats => ({
  count: files.length,
  meanSize: files.length ? files.reduce((sum, file) => sum + file.size, 0) / files.length : 0,
});

/**
 * The ranked hits in `scope` of `parsed` over `files` (every file holding some clause; files holding none may be
 * left out when `every` gives the statistics of the whole memory): `textsOf` gives the shown hits' texts and words
 * for their lines, all at once (the index reads them in as few requests as it can).
 */
export async function rankFiles<F extends FileCounts>(
  files: readonly F[],
  parsed: ParsedQuery,
  scope: string,
  textsOf: ShownTexts<F>,
  every: FileStats = fileStats(files),
): Promise<SearchResult> {
  const { clauses, limit } = parsed;
  const { count, meanSize } = every;
  const idf = clauses.map((_, i) => {
    let df = 0;
    for (const file of files) if ((file.counts[i] ?? 0) > 0) df++;
    return inverseFrequency(count, df);
  });
  const ranked = new TopHits<Omit<SearchHit, 'lines'> & { file: F }>(limit);
  // The folder's prefix made once, not a string built per file (as isWithin does).
  const folder = `${scope}/`;
  for (const file of files) {
    const { path, counts } = file;
    if ((path !== scope && !path.startsWith(folder)) || !(file.listed ?? isListed(path))) continue;
    let matched = 0;
    let score = 0;
    for (let i = 0; i < counts.length; i++) {
      const found = counts[i] ?? 0;
      if (found === 0) continue;
      matched++;
      score += clauseScore(found, idf[i] ?? 0, file.size, meanSize);
    }
    if (matched > 0) ranked.add({ path, score, matched, file });
  }
  return { hits: await shownHits(ranked.best, clauses, textsOf), total: ranked.seen, clauses: clauses.length };
}

/** The shown hits' texts and words, all at once (the index reads them in as few requests as it can). */
export type ShownTexts<F> = (files: readonly F[]) => Promise<Array<{ text: string; tokens: readonly Token[] }>>;

/** The kept hits, best first, with their matching lines. */
export async function shownHits<F>(
  best: ReadonlyArray<Omit<SearchHit, 'lines'> & { file: F }>,
  clauses: ParsedQuery['clauses'],
  textsOf: ShownTexts<F>,
): Promise<SearchHit[]> {
  const texts = await textsOf(best.map((hit) => hit.file));
  return best.map(({ path, score, matched }, i) => {
    const { text, tokens } = texts[i] ?? { text: '', tokens: [] };
    return { path, score, matched, lines: matchedLines(text, tokens, clauses) };
  });
}

/** Searches by reading and cutting every file's text in one read-only transaction. */
export async function scanSearch(
  tx: MemoryTx<'readonly'>,
  parsed: ParsedQuery,
  scope: string,
  tokenizer: Tokenizer,
): Promise<SearchResult> {
  const entries = (await tx.objectStore('entries').getAll()).filter((entry) => entry.kind === 'file');
  const texts = await Promise.all(entries.map((entry: EntryRecord) => readBody(tx, entry)));
  const read = new Map<string, { text: string; tokens: Token[] }>();
  const files = entries.map((entry, i) => {
    const text = texts[i] ?? '';
    const tokens = tokenizer.tokens(text);
    read.set(entry.path, { text, tokens });
    return { path: entry.path, size: entry.size, counts: parsed.clauses.map((clause) => countClause(tokens, clause)) };
  });
  return rankFiles(files, parsed, scope, (shown) =>
    Promise.resolve(shown.map((file) => read.get(file.path) ?? { text: '', tokens: [] })),
  );
}
