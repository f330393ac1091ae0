// A query answered from the index: each clause's postings (main, delta, and the few bodies not indexed yet), mapped to
// the live files, phrases counted from their words' positions, then ranked as scanSearch ranks (./README.md, "Queries").

import type { MemoryTx } from '../storage/store.js';
import { phraseBiwords } from './biwords.js';
import { addBody, readState } from './index-drain.js';
import type { LiveFile, LiveFileCache, LiveFiles } from './live-files.js';
import { RunWriter, countOf, countPhraseIn, decodeRun, scanCounts, scanRun } from './postings.js';
import type { Posting } from './postings.js';
import type { Clause, ParsedQuery } from './query.js';
import { CountTable, rankTable } from './count-table.js';
import type { Tokenizer } from './tokens.js';
import { segmentsHolding } from './position-segments.js';
import { termRuns } from './term-runs.js';
import type { Overlay, TermRuns } from './term-runs.js';
import type { SearchResult } from './types.js';

type ReadTx = MemoryTx<'readonly'>;

/**
 * Answers `parsed` from the index in `tx`, or undefined when the index cannot (another tokenizer's, or more than
 * `backlog` bodies not indexed yet): the caller then reads the files. `seen` hears how many bodies are not indexed.
 */
export async function indexSearch(
  tx: ReadTx,
  parsed: ParsedQuery,
  scope: string,
  tokenizer: Tokenizer,
  cache: LiveFileCache,
  backlog: number,
  seen: (pending: number) => void = () => undefined,
): Promise<SearchResult | undefined> {
  const bodies = tx.objectStore('bodies');
  // Every first read is sent at once, one round trip instead of four: the state, the live files' stamp, the last
  // body's id (no count when none is above the watermark) and each clause's stored postings; the bodies above the
  // watermark (another tab's write) are cut into the overlay only when there are some, and the postings wait for it.
  const stateRead = readState(tx, tokenizer);
  const lastBody = bodies.openKeyCursor(null, 'prev').then((cursor) => (cursor ? Number(cursor.key) : 0));
  const liveRead = cache.read(tx);
  const pendingRead = Promise.all([stateRead, lastBody]).then(async ([{ state, fresh }, last]) => {
    // Never in step: every body is to index again (a few drained by the next search, many in the background).
    if (fresh) return Math.max(1, await bodies.count());
    if (last <= state.indexedThrough) return 0;
    return bodies.count(IDBKeyRange.lowerBound(state.indexedThrough, true));
  });
  // Undefined when the index cannot answer (another format's, or too many bodies above the watermark).
  const overlayRead = Promise.all([stateRead, pendingRead]).then(async ([{ state, fresh }, pending]) => {
    if (fresh || pending > backlog) return undefined;
    const overlay: Overlay = new Map();
    if (pending === 0) return overlay;
    const above = IDBKeyRange.lowerBound(state.indexedThrough, true);
    const [ids, texts] = await Promise.all([bodies.getAllKeys(above), bodies.getAll(above)]);
    // Only the terms the query reads: a body's every term (a thousand and more for 10 KB of prose) made garbage a
    // write right after the search paid for (./README.md, "A write right after a search").
    const wanted = queryTerms(parsed);
    ids.forEach((id, i) => {
      const runs = new Map<string, RunWriter>();
      addBody(id, texts[i] ?? '', tokenizer, runs, wanted);
      for (const [term, run] of runs) overlay.set(term, decodeRun(run.done(), overlay.get(term)));
    });
    return overlay;
  });
  // The live files, or undefined when the index cannot answer: the clauses then stop after their reads.
  const table = new CountTable(parsed.clauses.length);
  const usable = Promise.all([stateRead, pendingRead, liveRead]).then(([{ fresh }, pending, live]) => {
    if (fresh || pending > backlog) return undefined;
    table.size(live.files.length);
    return live;
  });
  const clauseReads = parsed.clauses.map((clause, i) =>
    clauseCounts(tx, clause, overlayRead, usable, (file, count) => table.add(file.index, i, count)),
  );
  const [{ fresh }, pending, live] = await Promise.all([stateRead, pendingRead, usable]);
  seen(pending);
  if (fresh || !live) {
    // Their reads may still fail with the transaction: nothing waits for them now.
    for (const read of clauseReads) read.catch(() => undefined);
    return undefined;
  }
  await Promise.all(clauseReads);
  // Only the hits shown are read, for their lines (found by the ranked file itself: no map of every hit's path).
  const textsOf = async (shown: readonly LiveFile[]) => {
    const texts = await bodyTexts(tx, shown.map((file) => file.bodyId));
    return texts.map((text) => ({ text, tokens: tokenizer.tokens(text) }));
  };
  // Only the files holding some clause are ranked; the memory's statistics come with the cached live files.
  return rankTable(live.files, table, parsed, scope, textsOf, live.stats);
}

/** Whether a term is one `parsed` reads (./term-runs.ts): a clause's words, a phrase's biwords, a prefix's words. */
function queryTerms(parsed: ParsedQuery): (term: string) => boolean {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const { terms, prefix } of parsed.clauses) {
    terms.forEach((term, j) => (prefix && j === terms.length - 1 ? prefixes.push(term) : exact.add(term)));
    if (terms.length > 1) for (const pair of phraseBiwords(terms, prefix)) exact.add(pair);
  }
  return (term) => exact.has(term) || prefixes.some((start) => term.startsWith(start));
}

/**
 * The texts of bodies `ids` in as few requests as may be: one `getAll` over their span when the ids are dense (files
 * written together), else a `get` each, all issued at once.
 */
async function bodyTexts(tx: ReadTx, ids: ReadonlyArray<number | undefined>): Promise<string[]> {
  const known = ids.filter((id): id is number => id !== undefined);
  if (known.length === 0) return ids.map(() => '');
  const low = Math.min(...known);
  const high = Math.max(...known);
  const bodies = tx.objectStore('bodies');
  if (known.length > 1 && high - low < 2 * known.length) {
    const range = IDBKeyRange.bound(low, high);
    const [keys, values] = await Promise.all([bodies.getAllKeys(range), bodies.getAll(range)]);
    const byId = new Map(keys.map((key, i) => [key, values[i] ?? ''] as const));
    return ids.map((id) => (id === undefined ? '' : byId.get(id) ?? ''));
  }
  const texts = await Promise.all(known.map((id) => bodies.get(id)));
  const byId = new Map(known.map((id, i) => [id, texts[i] ?? ''] as const));
  return ids.map((id) => (id === undefined ? '' : byId.get(id) ?? ''));
}

/** Hands `tally` how often each live file holding `clause` holds it (a file more than once: add them). */
async function clauseCounts(
  tx: ReadTx,
  clause: Clause,
  overlay: Promise<Overlay | undefined>,
  usable: Promise<LiveFiles | undefined>,
  tally: (file: LiveFile, count: number) => void,
): Promise<void> {
  // A phrase's pairs of common words are indexed as biwords (./biwords.ts): a phrase of two is its biword's counts, a
  // word query; a longer one keeps only the bodies holding each of its biwords before reading any position.
  const pairs = clause.terms.length > 1 ? phraseBiwords(clause.terms, clause.prefix) : [];
  const [pair] = pairs;
  const terms = clause.terms.length === 2 && pair !== undefined ? [pair] : clause.terms;
  const { prefix } = clause; // never with a pair: a prefix's last word has no biword
  const phrase = terms.length > 1;
  const [sources, filters] = await Promise.all([
    Promise.all(terms.map((term, j) => termRuns(tx, term, prefix && j === terms.length - 1, phrase, overlay))),
    Promise.all(phrase ? pairs.map((term) => termRuns(tx, term, false, false, overlay)) : []),
  ]);
  const live = await usable;
  const [only] = sources;
  if (!only || !live) return;
  const { byBody } = live;
  if (!phrase) {
    // A body in several runs (a prefix's words) has their counts added.
    const take = (id: number, count: number): void => {
      const files = byBody.get(id);
      if (files && count > 0) for (const file of files) tally(file, count);
    };
    for (const run of only.runs) scanCounts(run, take);
    for (const [id, posting] of only.extra) take(id, countOf(posting));
    return;
  }
  const held = phraseCandidates([...sources, ...filters], byBody);
  if (held.size === 0) return;
  const ids = [...held].sort((a, b) => a - b);
  // Only the position segments holding a candidate are read, each word's neighbours in one getAll.
  const main = tx.objectStore('searchTerms');
  const positioned = await Promise.all(
    sources.map(async (source) => {
      const reads = await Promise.all(segmentsHolding(source.segments, ids).map((range) => main.getAll(range)));
      return { runs: [...reads.flat(), ...source.delta], extra: source.extra };
    }),
  );
  const scratch: number[][] = [];
  for (const [id, postings] of phraseBodies(positioned, held)) {
    const count = countPhraseIn(postings, scratch);
    // A body is counted once: each of its files gets its count once.
    if (count > 0) for (const file of byBody.get(id) ?? []) tally(file, count);
  }
}

/**
 * The live bodies holding every word of a phrase, from the words' counts alone: the rarest word's runs walked first,
 * then each other word's keeping only the bodies still held.
 */
function phraseCandidates(sources: readonly TermRuns[], byBody: ReadonlyMap<number, unknown>): Set<number> {
  const order = [...sources].sort((a, b) => a.bytes - b.bytes);
  let held: Set<number> | undefined;
  for (const source of order) {
    const before = held;
    const next = new Set<number>();
    const take = before
      ? (id: number): void => {
          if (before.has(id)) next.add(id);
        }
      : (id: number): void => {
          if (byBody.has(id)) next.add(id);
        };
    for (const run of source.runs) scanCounts(run, take);
    for (const [id] of source.extra) take(id);
    held = next;
    if (held.size === 0) break;
  }
  return held ?? new Set();
}

/** Each candidate body's postings (with positions) of the phrase's words, in the phrase's order. */
function phraseBodies(
  sources: ReadonlyArray<Pick<TermRuns, 'runs' | 'extra'>>,
  held: ReadonlySet<number>,
): Map<number, Array<Posting | undefined>> {
  const bodies = new Map<number, Array<Posting | undefined>>();
  const wanted = (id: number): boolean => held.has(id);
  sources.forEach((source, j) => {
    const take = (id: number, posting: Posting): void => {
      let list = bodies.get(id);
      // As long as the phrase: a word with no posting here (none in the segments read) makes it count 0.
      if (!list) bodies.set(id, (list = new Array<Posting | undefined>(sources.length)));
      const had = list[j];
      list[j] = had ? { ...posting, more: had } : posting;
    };
    for (const run of source.runs) scanRun(run, wanted, take);
    for (const [id, posting] of source.extra) if (wanted(id)) take(id, posting);
  });
  return bodies;
}
