// What `tool.search` must answer, computed from the files alone (path → text), written again from the documented
// rules and sharing no code with src/search: the proof the scan and the index are held to. Words outside Latin,
// Greek and Cyrillic scripts (those an `Intl.Segmenter` cuts) are beyond it: storms feed it Latin text only.

/** One expected hit: its path, rank inputs and the numbers of its matching lines. */
export interface OracleHit {
  path: string;
  matched: number;
  score: number;
  lines: number[];
}

export interface OracleResult {
  hits: OracleHit[];
  total: number;
  clauses: number;
}

export interface OracleQuery {
  limit?: number;
  prefix?: boolean;
  /** A normalized path under /memories (a folder or a file); default all of it. */
  path?: string;
}

interface Word {
  term: string;
  start: number;
}

const K1 = 1.2;
const B = 0.75;
const MAX_TERM = 64;
const LINES_PER_HIT = 8;
/** Scores closer than this (relative) are a tie, broken by path: two sums of the same terms may differ in the last bit. */
const TIE = 1e-9;

/** Folds a word: NFKD, marks off Latin/Greek/Cyrillic letters, NFC, lower case, only word characters, 64 units. */
export function oracleFold(word: string): string {
  const bare = word
    .normalize('NFKD')
    .replace(/([\p{sc=Latin}\p{sc=Greek}\p{sc=Cyrillic}])\p{M}+/gu, '$1')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}_]+/gu, '');
  if (bare.length <= MAX_TERM) return bare;
  const high = bare.charCodeAt(MAX_TERM - 1);
  return bare.slice(0, high >= 0xd800 && high <= 0xdbff ? MAX_TERM - 1 : MAX_TERM);
}

/** The words of a text: runs of letters, digits, marks and `_`, folded. */
export function oracleWords(text: string): Word[] {
  const out: Word[] = [];
  for (const match of text.matchAll(/[\p{L}\p{N}\p{M}_]+/gu)) {
    const term = oracleFold(match[0]);
    if (term !== '') out.push({ term, start: match.index });
  }
  return out;
}

interface Clause {
  terms: string[];
  prefix: boolean;
}

/** The query's clauses: each quoted piece one, each other blank-separated word one; twins dropped. */
export function oracleClauses(query: string, prefix = false): Clause[] {
  const clauses: Clause[] = [];
  const seen = new Set<string>();
  const add = (piece: string) => {
    const terms = oracleWords(piece).map((word) => word.term);
    if (terms.length > 0 && !seen.has(terms.join(' '))) {
      seen.add(terms.join(' '));
      clauses.push({ terms, prefix: false });
    }
  };
  query.split('"').forEach((piece, i) => (i % 2 === 1 ? add(piece) : piece.split(/\s+/u).forEach(add)));
  const last = clauses.at(-1);
  if (prefix && last && /[\p{L}\p{N}\p{M}_]$/u.test(query)) last.prefix = true;
  return clauses;
}

/** Start indexes of the clause's occurrences in `words`, not overlapping, left to right. */
function occurrences(words: readonly Word[], clause: Clause): number[] {
  const found: number[] = [];
  const n = clause.terms.length;
  for (let i = 0; i + n <= words.length; i++) {
    const all = clause.terms.every((want, j) => {
      const term = words[i + j]?.term ?? '';
      return clause.prefix && j === n - 1 ? term.startsWith(want) : term === want;
    });
    if (all) {
      found.push(i);
      i += n - 1;
    }
  }
  return found;
}

/** True where `view` would not list the path: a dot-name or `node_modules` below /memories. */
export const oracleHidden = (path: string): boolean =>
  path.split('/').slice(2).some((name) => name.startsWith('.') || name === 'node_modules');

const within = (path: string, scope: string) => path === scope || path.startsWith(scope + '/');
const bytes = (text: string) => new TextEncoder().encode(text).length;

/** The expected answer of `query` over `files` (every file of the memory, hidden ones too). */
export function oracleSearch(files: ReadonlyMap<string, string>, query: string, options: OracleQuery = {}): OracleResult {
  const clauses = oracleClauses(query, options.prefix ?? false);
  const scope = options.path ?? '/memories';
  const all = [...files].map(([path, text]) => {
    const words = oracleWords(text);
    return { path, text, words, size: bytes(text), found: clauses.map((clause) => occurrences(words, clause)) };
  });
  const n = all.length;
  const mean = n ? all.reduce((sum, file) => sum + file.size, 0) / n : 0;
  const idf = clauses.map((_, i) => {
    const df = all.filter((file) => (file.found[i]?.length ?? 0) > 0).length;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  });
  const hits: Array<OracleHit & { file: (typeof all)[number] }> = [];
  for (const file of all) {
    if (!within(file.path, scope) || oracleHidden(file.path)) continue;
    let matched = 0;
    let score = 0;
    file.found.forEach((starts, i) => {
      const tf = starts.length;
      if (tf === 0) return;
      matched++;
      const norm = mean > 0 ? 1 - B + (B * file.size) / mean : 1 - B;
      score += ((idf[i] ?? 0) * tf * (K1 + 1)) / (tf + K1 * norm);
    });
    if (matched > 0) hits.push({ path: file.path, matched, score, lines: [], file });
  }
  hits.sort(
    (a, b) =>
      b.matched - a.matched ||
      (Math.abs(a.score - b.score) <= TIE * Math.max(a.score, b.score) ? 0 : b.score - a.score) ||
      (a.path < b.path ? -1 : 1),
  );
  const top = hits.slice(0, options.limit ?? 20).map(({ file, ...hit }) => ({ ...hit, lines: linesOf(file) }));
  return { hits: top, total: hits.length, clauses: clauses.length };
}

/** 1-based numbers of the lines where an occurrence starts, first ones first, at most eight. */
function linesOf(file: { text: string; words: Word[]; found: number[][] }): number[] {
  const lines = new Set<number>();
  for (const starts of file.found) {
    for (const index of starts) {
      const at = file.words[index]?.start ?? 0;
      lines.add(file.text.slice(0, at).split('\n').length);
    }
  }
  return [...lines].sort((a, b) => a - b).slice(0, LINES_PER_HIT);
}

/** A search answer as the oracle sees it, to compare with `toEqual` (scores rounded, lines by number). */
export function comparable(result: {
  hits: Array<{ path: string; matched: number; score: number; lines: Array<{ line: number }> | number[] }>;
  total: number;
  clauses: number;
}) {
  return {
    total: result.total,
    clauses: result.clauses,
    hits: result.hits.map((hit) => ({
      path: hit.path,
      matched: hit.matched,
      score: Number(hit.score.toPrecision(9)),
      lines: hit.lines.map((line) => (typeof line === 'number' ? line : line.line)),
    })),
  };
}
