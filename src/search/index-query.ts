// A query answered from the index: each clause's postings (main, delta, and the few bodies not indexed yet), mapped to
// the live files, phrases counted from their words' positions, then ranked as scanSearch ranks (./README.md, "Queries").

import type { MemoryTx } from '../storage/store.js';
import { readState, termPositions } from './index-drain.js';
import type { LiveFile, LiveFileCache } from './live-files.js';
import { RunWriter, countOf, countPhraseIn, decodeRun, scanCounts, scanRun } from './postings.js';
import type { Posting } from './postings.js';
import type { Clause, ParsedQuery } from './query.js';
import { rankFiles } from './scan-search.js';
import type { Tokenizer } from './tokens.js';
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
  const { state, fresh } = await readState(tx, tokenizer);
  if (fresh) {
    // Never in step: every body is to index again (a few drained by the next search, many in the background).
    seen(Math.max(1, await tx.objectStore('bodies').count()));
    return undefined;
  }
  const above = IDBKeyRange.lowerBound(state.indexedThrough, true);
  const bodies = tx.objectStore('bodies');
  const [live, pending] = await Promise.all([cache.read(tx), bodies.count(above)]);
  seen(pending);
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
  const textsOf = async (shown: ReadonlyArray<{ bodyId: number | undefined }>) => {
    const texts = await bodyTexts(tx, shown.map((file) => file.bodyId));
    return texts.map((text) => ({ text, tokens: tokenizer.tokens(text) }));
  };
  return rankFiles(files, parsed, scope, textsOf, live.stats);
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

/** How often each live file holding `clause` holds it. */
async function clauseCounts(
  tx: ReadTx,
  clause: Clause,
  overlay: Overlay,
  byBody: ReadonlyMap<number, LiveFile[]>,
): Promise<Map<LiveFile, number>> {
  const { terms, prefix } = clause;
  const sources = await Promise.all(
    terms.map((term, j) => termRuns(tx, term, prefix && j === terms.length - 1, terms.length > 1, overlay)),
  );
  const found = new Map<LiveFile, number>();
  const [only] = sources;
  if (!only) return found;
  if (sources.length === 1) {
    // A body in several runs (a prefix's words) has their counts added.
    const take = (id: number, count: number): void => {
      const files = byBody.get(id);
      if (files && count > 0) for (const file of files) found.set(file, (found.get(file) ?? 0) + count);
    };
    for (const run of only.runs) scanCounts(run, take);
    for (const [id, posting] of only.extra) take(id, countOf(posting));
    return found;
  }
  const scratch: number[][] = [];
  for (const [id, postings] of phraseBodies(sources, byBody)) {
    const count = countPhraseIn(postings, scratch);
    if (count > 0) for (const file of byBody.get(id) ?? []) found.set(file, count);
  }
  return found;
}

/**
 * The live bodies holding every word of a phrase, each with its words' postings in the phrase's order: the rarest
 * word's runs walked first, then each other word's only for the bodies still kept (no map of a common word's bodies).
 */
function phraseBodies(sources: readonly TermRuns[], byBody: ReadonlyMap<number, unknown>): Map<number, Posting[]> {
  const order = sources.map((_, j) => j).sort((a, b) => (sources[a]?.bytes ?? 0) - (sources[b]?.bytes ?? 0));
  let kept: Map<number, Posting[]> | undefined;
  for (const j of order) {
    const source = sources[j];
    if (!source) continue;
    const held = kept;
    const next = new Map<number, Posting[]>();
    const wanted = held ? (id: number) => held.has(id) : (id: number) => byBody.has(id);
    const take = (id: number, posting: Posting): void => {
      let list = next.get(id);
      if (!list) next.set(id, (list = held?.get(id) ?? []));
      const had = list[j];
      list[j] = had ? { ...posting, more: had } : posting;
    };
    for (const run of source.runs) scanRun(run, wanted, take);
    for (const [id, posting] of source.extra) if (wanted(id)) take(id, posting);
    kept = next;
    if (kept.size === 0) break;
  }
  return kept ?? new Map();
}
