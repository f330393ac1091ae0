// A query answered from the index: each clause's postings (main, delta, and the few bodies not indexed yet), mapped to
// the live files, phrases counted from their words' positions, then ranked as scanSearch ranks (./README.md, "Queries").

import type { MemoryTx } from '../storage/store.js';
import { getRecord } from '../storage/store.js';
import { readState, termPositions } from './index-drain.js';
import { BUCKET_ROWS, bucketOf, bucketRange, unpackBucket } from './delta-buckets.js';
import { deltaRange, mainKey, prefixRange } from './index-stores.js';
import type { LiveFile, LiveFileCache } from './live-files.js';
import { RunWriter, countOf, countPhrase, decodeRun, positionsOf } from './postings.js';
import type { Postings } from './postings.js';
import type { Clause, ParsedQuery } from './query.js';
import { rankFiles } from './scan-search.js';
import type { Token, Tokenizer } from './tokens.js';
import type { SearchResult } from './types.js';
import { SEARCH_LIMITS } from './types.js';

type ReadTx = MemoryTx<'readonly'>;

/** Postings of the bodies above the watermark, cut in the query's own transaction: term → body id → posting. */
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
      for (const [term, positions] of termPositions(texts[i] ?? '', tokenizer)) {
        const run = new RunWriter();
        run.add(id, positions);
        overlay.set(term, decodeRun(run.done(), overlay.get(term)));
      }
    });
  }
  const counts = new Map<LiveFile, number[]>();
  const perClause = await Promise.all(parsed.clauses.map((clause) => clauseCounts(tx, clause, overlay, live.byBody)));
  perClause.forEach((found, i) => {
    for (const [file, count] of found) {
      let list = counts.get(file);
      if (!list) counts.set(file, (list = parsed.clauses.map(() => 0)));
      list[i] = count;
    }
  });
  // Only the files holding some clause are ranked; the memory's statistics come with the cached live files.
  const files = [...counts].map(([{ path, size, listed, bodyId }, list]) => ({
    path,
    size,
    counts: list,
    listed,
    bodyId,
  }));
  // Only the hits shown are read, for their lines (found by the ranked file itself: no map of every hit's path).
  const textOf = async ({ bodyId }: { bodyId: number | undefined }): Promise<{ text: string; tokens: Token[] }> => {
    const text = (bodyId === undefined ? undefined : await getRecord(tx, 'bodies', bodyId)) ?? '';
    return { text, tokens: tokenizer.tokens(text) };
  };
  return rankFiles(files, parsed, scope, textOf, live.stats);
}

/** How often each live file holding `clause` holds it. */
async function clauseCounts(
  tx: ReadTx,
  clause: Clause,
  overlay: Overlay,
  byBody: ReadonlyMap<number, LiveFile[]>,
): Promise<Map<LiveFile, number>> {
  const { terms, prefix } = clause;
  const lists = await Promise.all(
    terms.map((term, j) => termPostings(tx, term, prefix && j === terms.length - 1, terms.length > 1, overlay)),
  );
  const found = new Map<LiveFile, number>();
  const [first, ...rest] = lists;
  if (!first) return found;
  // A phrase: the bodies holding every word, then its words in order counted from their positions.
  for (const [id, posting] of first) {
    const files = byBody.get(id);
    if (!files) continue;
    let count: number;
    if (rest.length === 0) count = countOf(posting);
    else {
      const others = rest.map((list) => list.get(id));
      if (!others.every((other) => other !== undefined)) continue;
      count = countPhrase([positionsOf(posting), ...others.map((other) => (other ? positionsOf(other) : []))]);
    }
    if (count > 0) for (const file of files) found.set(file, count);
  }
  return found;
}

/**
 * One word's postings (or, `prefix`, those of the first words starting with it), from main, delta and overlay;
 * `positions` false: the main record of counts alone (the delta's runs carry positions anyway).
 */
async function termPostings(
  tx: ReadTx,
  term: string,
  prefix: boolean,
  positions: boolean,
  overlay: Overlay,
): Promise<Postings> {
  const main = tx.objectStore('searchTerms');
  const delta = tx.objectStore('searchDelta');
  if (!prefix) {
    const [packed, runs, buckets] = await Promise.all([
      main.get(mainKey(term, positions)),
      delta.getAll(deltaRange(term)),
      delta.getAll(bucketRange(bucketOf(term))),
    ]);
    const postings = decodeRun(packed);
    for (const run of runs) decodeRun(run, postings);
    for (const row of buckets) for (const [, run] of unpackBucket(row, (word) => word === term)) decodeRun(run, postings);
    for (const [id, posting] of overlay.get(term) ?? []) postings.set(id, posting);
    return postings;
  }
  const most = SEARCH_LIMITS.maxPrefixTerms;
  const range = prefixRange(mainKey(term, positions));
  const deltaKeys = IDBKeyRange.bound([term], [term + '\uffff'.repeat(65), Infinity]);
  const [mainTerms, mainLists, keys, runs, buckets] = await Promise.all([
    main.getAllKeys(range, most),
    main.getAll(range, most),
    delta.getAllKeys(deltaKeys),
    delta.getAll(deltaKeys),
    // A word's bucket is a hash of it: a prefix's words may be in any (there are none once the delta is merged).
    delta.getAll(BUCKET_ROWS()),
  ]);
  const bucketed = buckets.flatMap((row) => unpackBucket(row, (word) => word.startsWith(term)));
  const mainWords = positions ? mainTerms.map((key) => key.slice(1)) : mainTerms;
  const words = new Set(mainWords);
  for (const [word] of keys) words.add(word);
  for (const [word] of bucketed) words.add(word);
  for (const word of overlay.keys()) if (word.startsWith(term)) words.add(word);
  const kept = new Set([...words].filter((word) => word.startsWith(term)).sort(byCodeUnit).slice(0, most));
  const postings: Postings = new Map();
  // A body holding several of the words gets their postings chained (./postings.ts): counts add, positions merge.
  mainWords.forEach((word, i) => {
    if (kept.has(word)) decodeRun(mainLists[i], postings);
  });
  keys.forEach(([word], i) => {
    if (kept.has(word)) decodeRun(runs[i], postings);
  });
  for (const [word, run] of bucketed) if (kept.has(word)) decodeRun(run, postings);
  for (const [word, list] of overlay) {
    if (!kept.has(word)) continue;
    for (const [id, posting] of list) {
      const had = postings.get(id);
      postings.set(id, had ? { ...posting, more: had } : posting);
    }
  }
  return postings;
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
