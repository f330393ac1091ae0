// What `tool.search` takes and answers, and its bounds (./README.md).

/** Options of `tool.search(query, options)`. */
export interface SearchOptions {
  /** A folder (or one file) under `/memories` to search in, checked like every command's path. Default: all of it. */
  path?: string | undefined;
  /** The most hits returned, 1 to {@link SEARCH_LIMITS}`.maxLimit`. Default 20. `total` still counts every match. */
  limit?: number | undefined;
  /** Also match the query's last word as the start of a word (`caf` finds `café`), for results as the person types. */
  prefix?: boolean | undefined;
  /** Stops the search: it rejects with the signal's reason and changes nothing. */
  signal?: AbortSignal | undefined;
}

/** One matching line of a hit, numbered as `view` numbers it. */
export interface SearchLine {
  /** 1-based, as `view` shows it. */
  line: number;
  /** The line, or a window of it around the first match when it is longer than `SEARCH_LIMITS.lineChars`. */
  text: string;
  /** The matched words in `text`, as `[start, end)` UTF-16 offsets, in order: what a UI marks. */
  marks: Array<[start: number, end: number]>;
}

/** One file that matches, with the lines that do. */
export interface SearchHit {
  /** The file's normalized path. */
  path: string;
  /** Its rank: BM25 over the query's words and phrases (higher is better); hits are sorted by it. */
  score: number;
  /** The query's words and phrases it holds, of {@link SearchResult}`.clauses`. */
  matched: number;
  /** Its matching lines, first ones first, at most `SEARCH_LIMITS.linesPerHit`. */
  lines: SearchLine[];
}

/** What `tool.search` answers. */
export interface SearchResult {
  /** The best hits, at most `limit`: the most of the query's words and phrases first, then by score. */
  hits: SearchHit[];
  /** How many files match at least one of the query's words or phrases (in `path`). */
  total: number;
  /** How many words and phrases the query has (a file holding them all has `matched === clauses`). */
  clauses: number;
}

/** The bounds of a search: a query past them is refused, an answer is cut to them. */
export const SEARCH_LIMITS = Object.freeze({
  /** Hits returned when `limit` is not given. */
  defaultLimit: 20,
  /** The largest `limit` taken. */
  maxLimit: 1000,
  /** UTF-16 code units of the query. */
  maxQueryChars: 1000,
  /** Words and quoted phrases in one query. */
  maxClauses: 32,
  /** Words a prefix (`prefix: true`) may stand for; the first ones in code-unit order. */
  maxPrefixTerms: 100,
  /** Matching lines shown per hit. */
  linesPerHit: 8,
  /** A shown line longer than this is cut to a window around its first match (UTF-16 code units). */
  lineChars: 400,
  /** A word is cut to this many UTF-16 code units, in the index and in a query alike. */
  maxTermChars: 64,
});
