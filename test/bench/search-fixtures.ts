// The Search rows' data and shapes, shared by the page (search-page.ts) and the report (report-search.ts): seeded
// English-like prose from a Zipf vocabulary, the queries timed over it, and what a run brings back.

import { seededRandom } from '../helpers/seeded-random.js';

/** How much the Search rows do: the memory searched, the queries' reps, the 10 KB writes' reps. */
export interface SearchPlan {
  files: number;
  bytes: number;
  queryReps: number;
  writeReps: number;
  /** Files in each of the two memories the 10 KB writes are timed in. */
  writeFiles: number;
  /** The write rows alone, no 10,000-file memory (`BENCH_SEARCH=writes`, read by run.ts). */
  writesOnly?: boolean;
}

/** One timed thing: its label, what it is, and every run's milliseconds. */
export interface SearchTimes {
  label: string;
  kind: 'query' | 'first' | 'write' | 'write-search';
  ms: number[];
}

/** What the Search rows bring back from one engine. */
export interface SearchResults {
  files: number;
  textBytes: number;
  rows: SearchTimes[];
  /** The stores' contents summed (keys and values, strings as UTF-8) before the first search and after it. */
  storedBefore: number;
  storedAfter: number;
  /** `navigator.storage.estimate().usage` before and after the first search, where the engine has it. */
  usageBefore?: number;
  usageAfter?: number;
  /** What each query found, so a reader sees it is not empty. */
  totals: Record<string, number>;
}

const COMMON = (
  'the of and to a in is it you that he was for on are with as his they be at one have this from or had by hot word ' +
  'but what some we can out other were all there when up use your how said an each she which do their time if will ' +
  'way about many then them write would like so these her long make thing see him two has look more day could go come'
).split(' ');

const ONSETS = ['b', 'c', 'd', 'f', 'g', 'h', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'w', 'br', 'ch', 'cl', 'dr', 'gr', 'pl', 'sh', 'st', 'th', 'tr'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ea', 'ou', 'ai', 'io'];
const CODAS = ['', '', 'n', 'r', 's', 't', 'l', 'nd', 'st', 'ng', 'ck', 'rt'];

/** The vocabulary, most frequent first: common English words, then made-up words of one to four syllables. */
export function vocabulary(size = 20_000): string[] {
  const random = seededRandom(20_000);
  const pick = (list: readonly string[]) => list[Math.floor(random() * list.length)] ?? '';
  const words = new Set(COMMON);
  while (words.size < size) {
    const syllables = 1 + Math.floor(random() * random() * 4.5);
    let word = '';
    for (let s = 0; s < syllables; s++) word += pick(ONSETS) + pick(VOWELS) + pick(CODAS);
    words.add(word);
  }
  return [...words];
}

/** Draws ranks with probability ∝ 1 / rank^1.07 (Zipf), from a cumulative table. */
function zipf(size: number, random: () => number): () => number {
  const cumulative = new Float64Array(size);
  let sum = 0;
  for (let r = 0; r < size; r++) cumulative[r] = sum += 1 / (r + 1) ** 1.07;
  return () => {
    const target = random() * sum;
    let low = 0;
    let high = size - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((cumulative[mid] ?? 0) < target) low = mid + 1;
      else high = mid;
    }
    return low;
  };
}

/** A maker of prose of about `bytes` bytes: sentences of 6 to 20 words, paragraphs of 2 to 5 sentences. */
export function proseMaker(words: readonly string[]): (bytes: number, seed: number) => string {
  return (bytes, seed) => {
    const random = seededRandom(seed);
    const rank = zipf(words.length, random);
    let text = '';
    let sentences = 0;
    while (text.length < bytes) {
      const length = 6 + Math.floor(random() * 15);
      const sentence = Array.from({ length }, () => words[rank()] ?? 'the').join(' ');
      text += sentence.charAt(0).toUpperCase() + sentence.slice(1) + (random() < 0.1 ? ', and so on.' : '.');
      text += ++sentences % (2 + Math.floor(random() * 4)) === 0 ? '\n\n' : ' ';
    }
    return text.slice(0, bytes);
  };
}

/** The queries timed: a rare word, a common word, two words, a phrase found in a file, a prefix. */
export function searchQueries(
  words: readonly string[],
  sample: string,
): Array<{ label: string; query: string; prefix?: boolean }> {
  const phrase = sample.split(/\s+/u).slice(10, 12).join(' ').replace(/[^\p{L}\s]/gu, '');
  const mid = words[700] ?? 'shout';
  return [
    { label: 'a rare word', query: words[15_000] ?? 'rare' },
    { label: 'a common word', query: 'the' },
    { label: 'two words', query: `${words[60] ?? 'day'} ${words[400] ?? 'word'}` },
    { label: 'a phrase', query: `"${phrase}"` },
    { label: 'a prefix, as typed', query: mid.slice(0, 3), prefix: true },
  ];
}

/** Percentile `p` (0–100) of `values`, nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}
