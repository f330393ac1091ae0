// A query answered from the index: each clause's postings (main, delta, and the few bodies not indexed yet), mapped to
// the live files, phrases checked against their text, then ranked as scanSearch ranks (./README.md, "Queries").

import type { MemoryTx } from '../storage/store.js';
import { getRecord } from '../storage/store.js';
import { readState, termCounts } from './index-drain.js';
import { addDeltaRow, deltaRange, prefixRange, unpack } from './index-stores.js';
import type { Postings } from './index-stores.js';
import type { LiveFile, LiveFileCache } from './live-files.js';
import { countClause, countClauseInText } from './matching.js';
import type { Clause, ParsedQuery } from './query.js';
import { rankFiles } from './scan-search.js';
import type { Token, Tokenizer } from './tokens.js';
import type { SearchResult } from './types.js';
import { SEARCH_LIMITS } from './types.js';

type ReadTx = MemoryTx<'readonly'>;

/** Postings of the bodies above the watermark, cut in the query's own transaction: term → body id → count. */
type Overlay = Map<string, Postings>;

/**
 * Answers `parsed` from the index in `tx`, or undefined when the index cannot (another tokenizer's, or more than
 * `backlog` bodies not indexed yet): the caller then reads the files.
 */
export async function indexSearch(
  tx: ReadTx,
  parsed: ParsedQuery,
  scope: string,
  tokenizer: Tokenizer,
  cache: LiveFileCache,
  backlog: number,
): Promise<SearchResult | undefined> {
  const { state, fresh } = await readState(tx, tokenizer);
  if (fresh) return undefined;
  const above = IDBKeyRange.lowerBound(state.indexedThrough, true);
  const bodies = tx.objectStore('bodies');
  const [live, pending] = await Promise.all([cache.read(tx), bodies.count(above)]);
  if (pending > backlog) return undefined;
  const overlay: Overlay = new Map();
  if (pending > 0) {
    const [ids, texts] = await Promise.all([bodies.getAllKeys(above), bodies.getAll(above)]);
    ids.forEach((id, i) => {
      for (const [term, count] of termCounts(texts[i] ?? '', tokenizer)) {
        const list = overlay.get(term) ?? new Map<number, number>();
        overlay.set(term, list.set(id, count));
      }
    });
  }
  // A file's text is read once, and cut into words only when needed: a phrase checked in ASCII text is not.
  const read = new Map<string, Promise<string>>();
  const cutWords = new Map<string, Token[]>();
  const textOf = async (file: LiveFile): Promise<{ text: string; tokens: () => Token[] }> => {
    let got = read.get(file.path);
    if (!got) {
      const text = file.bodyId === undefined ? Promise.resolve(undefined) : getRecord(tx, 'bodies', file.bodyId);
      read.set(file.path, (got = text.then((found = '') => found)));
    }
    const text = await got;
    const tokens = (): Token[] => {
      let words = cutWords.get(file.path);
      if (!words) cutWords.set(file.path, (words = tokenizer.tokens(text)));
      return words;
    };
    return { text, tokens };
  };
  const counts = new Map<LiveFile, number[]>();
  const perClause = await Promise.all(
    parsed.clauses.map((clause) => clauseCounts(tx, clause, overlay, live.byBody, textOf)),
  );
  perClause.forEach((found, i) => {
    for (const [file, count] of found) {
      let list = counts.get(file);
      if (!list) counts.set(file, (list = parsed.clauses.map(() => 0)));
      list[i] = count;
    }
  });
  // Only the files holding some clause are ranked; the memory's statistics come with the cached live files.
  const files = [...counts].map(([file, list]) => ({ path: file.path, size: file.size, counts: list }));
  const byPath = new Map([...counts.keys()].map((file) => [file.path, file]));
  const textOfPath = async (path: string) => {
    const file = byPath.get(path);
    if (!file) return { text: '', tokens: [] };
    const { text, tokens } = await textOf(file);
    return { text, tokens: tokens() };
  };
  return rankFiles(files, parsed, scope, textOfPath, live.stats);
}

/** How often each live file holding `clause` holds it. */
async function clauseCounts(
  tx: ReadTx,
  clause: Clause,
  overlay: Overlay,
  byBody: ReadonlyMap<number, LiveFile[]>,
  textOf: (file: LiveFile) => Promise<{ text: string; tokens: () => Token[] }>,
): Promise<Map<LiveFile, number>> {
  const { terms, prefix } = clause;
  const lists = await Promise.all(
    terms.map((term, j) => termPostings(tx, term, prefix && j === terms.length - 1, overlay)),
  );
  const found = new Map<LiveFile, number>();
  const [first, ...rest] = lists;
  if (!first) return found;
  if (rest.length === 0) {
    for (const [id, count] of first) for (const file of byBody.get(id) ?? []) found.set(file, count);
    return found;
  }
  // A phrase: the bodies holding every word, then its words in order checked in the text.
  const candidates: LiveFile[] = [];
  for (const id of first.keys()) {
    if (rest.every((list) => list.has(id))) candidates.push(...(byBody.get(id) ?? []));
  }
  const checked = await Promise.all(
    candidates.map(async (file) => {
      const { text, tokens } = await textOf(file);
      return countClauseInText(text, clause, SEARCH_LIMITS.maxTermChars) ?? countClause(tokens(), clause);
    }),
  );
  candidates.forEach((file, i) => {
    const count = checked[i] ?? 0;
    if (count > 0) found.set(file, count);
  });
  return found;
}

/** One word's postings (or, `prefix`, those of the first words starting with it), from main, delta and overlay. */
async function termPostings(tx: ReadTx, term: string, prefix: boolean, overlay: Overlay): Promise<Postings> {
  const main = tx.objectStore('searchTerms');
  const delta = tx.objectStore('searchDelta');
  if (!prefix) {
    const [packed, keys, counts] = await Promise.all([
      main.get(term),
      delta.getAllKeys(deltaRange(term)),
      delta.getAll(deltaRange(term)),
    ]);
    const postings = unpack(packed);
    keys.forEach(([, id], i) => addDeltaRow(postings, id, counts[i]));
    for (const [id, count] of overlay.get(term) ?? []) postings.set(id, (postings.get(id) ?? 0) + count);
    return postings;
  }
  const most = SEARCH_LIMITS.maxPrefixTerms;
  const range = prefixRange(term);
  const deltaKeys = IDBKeyRange.bound([term], [term + '\uffff'.repeat(65), Infinity]);
  const [mainTerms, mainLists, keys, counts] = await Promise.all([
    main.getAllKeys(range, most),
    main.getAll(range, most),
    delta.getAllKeys(deltaKeys),
    delta.getAll(deltaKeys),
  ]);
  const words = new Set(mainTerms);
  for (const [word] of keys) words.add(word);
  for (const word of overlay.keys()) if (word.startsWith(term)) words.add(word);
  const kept = new Set([...words].filter((word) => word.startsWith(term)).sort(byCodeUnit).slice(0, most));
  const postings: Postings = new Map();
  mainTerms.forEach((word, i) => {
    if (kept.has(word)) unpack(mainLists[i], postings);
  });
  keys.forEach(([word, id], i) => {
    if (kept.has(word)) addDeltaRow(postings, id, counts[i]);
  });
  for (const [word, list] of overlay) {
    if (!kept.has(word)) continue;
    for (const [id, count] of list) postings.set(id, (postings.get(id) ?? 0) + count);
  }
  return postings;
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
