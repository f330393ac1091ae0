// Text into words for search: case- and accent-folded, identifiers whole, scripts without spaces split by
// `Intl.Segmenter` or, where it is missing, into character pairs (./README.md, "Words").

import { SEARCH_LIMITS } from './types.js';

/** One word of a text: its folded form and where it stands in the text (UTF-16 offsets). */
export interface Token {
  term: string;
  start: number;
  end: number;
}

/** A way of cutting text into words. The index records `id`, and is rebuilt if a later run cuts differently. */
export interface Tokenizer {
  readonly id: string;
  tokens(text: string): Token[];
}

// Letters, digits, combining marks and `_`: `useMemoryTree` and `snake_case` stay whole, `idb-memory` is two words.
const WORD_RUN = /[\p{L}\p{N}\p{M}_]+/gu;
// Scripts written without spaces between words; Script_Extensions also takes in the kana prolonged sound mark.
const NO_SPACES = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]/u;
const NO_SPACES_RUNS = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]+/gu;
// Accents go only from Latin, Greek and Cyrillic letters: a Japanese voiced mark changes the word (か, が).
const ACCENTED = /([\p{sc=Latin}\p{sc=Greek}\p{sc=Cyrillic}])\p{M}+/gu;
const NOT_WORD = /[^\p{L}\p{N}\p{M}_]+/gu;
const ASCII_WORD = /^[\x30-\x39\x41-\x5a\x5f\x61-\x7a]+$/;

/** The form a word is compared in: compatibility-decomposed, accents off Latin, Greek and Cyrillic, lower case. */
export function foldWord(word: string): string {
  if (ASCII_WORD.test(word)) return cut(word.toLowerCase());
  const folded = word.normalize('NFKD').replace(ACCENTED, '$1').normalize('NFC').toLowerCase().replace(NOT_WORD, '');
  return cut(folded);
}

// A lone surrogate left by the cut would not survive as an IndexedDB key's twin in a query: cut before it.
function cut(term: string): string {
  if (term.length <= SEARCH_LIMITS.maxTermChars) return term;
  const end = SEARCH_LIMITS.maxTermChars;
  const code = term.charCodeAt(end - 1);
  return term.slice(0, code >= 0xd800 && code <= 0xdbff ? end - 1 : end);
}

type WordSegmenter = { segment(text: string): Iterable<{ segment: string; index: number }> };

/** The engine's word segmenter, or undefined where `Intl.Segmenter` is missing or fails. */
function engineSegmenter(): WordSegmenter | undefined {
  const Segmenter = (Intl as { Segmenter?: new (locale?: string, options?: object) => WordSegmenter }).Segmenter;
  if (typeof Segmenter !== 'function') return undefined;
  try {
    return new Segmenter(undefined, { granularity: 'word' });
  } catch {
    return undefined;
  }
}

/** Words of `text`: runs of letters and digits, those in scripts without spaces cut by `split`. */
function wordsOf(text: string, split: (run: string, at: number, out: Token[]) => void): Token[] {
  // ASCII text (most notes) is cut the same by a scan of its code units, several times faster than the Unicode pattern.
  const ascii = asciiWords(text);
  if (ascii) return ascii;
  const out: Token[] = [];
  for (const match of text.matchAll(WORD_RUN)) {
    const run = match[0];
    const at = match.index;
    if (NO_SPACES.test(run)) {
      split(run, at, out);
      continue;
    }
    const term = foldWord(run);
    if (term) out.push({ term, start: at, end: at + run.length });
  }
  return out;
}

/**
 * The words of ASCII text (runs of `0-9`, `A-Z`, `_`, `a-z`, as the Unicode pattern cuts such text), or undefined at its
 * first other code unit. A loop over code units: JavaScriptCore ran the pattern's `matchAll` several times slower.
 */
export function asciiWords(text: string): Token[] | undefined {
  const out: Token[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 0;
    if (code >= 0x80) return undefined;
    const word =
      (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39) || code === 0x5f;
    if (word) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      out.push({ term: cut(text.slice(start, i).toLowerCase()), start, end: i });
      start = -1;
    }
  }
  return out;
}

function push(out: Token[], word: string, start: number): void {
  const term = foldWord(word);
  if (term) out.push({ term, start, end: start + word.length });
}

/** Cuts with `Intl.Segmenter` (a dictionary for Chinese, Japanese, Thai): `私は緑茶が好き` → 私, は, 緑茶, が, 好き. */
function segmenterTokenizer(segmenter: WordSegmenter): Tokenizer {
  return {
    id: 'words-2+segmenter',
    // Every piece: the run holds only word characters, and Firefox marks some words not word-like (a lone `緑茶`,
    // `です`), which would make them unsearchable there.
    tokens: (text) =>
      wordsOf(text, (run, at, out) => {
        for (const piece of segmenter.segment(run)) push(out, piece.segment, at + piece.index);
      }),
  };
}

/** Where there is no segmenter: each pair of neighbouring characters of such a run is a word (a lone one too). */
export const pairsTokenizer: Tokenizer = {
  id: 'words-1+pairs',
  tokens: (text) =>
    wordsOf(text, (run, at, out) => {
      let last = 0;
      for (const match of run.matchAll(NO_SPACES_RUNS)) {
        if (match.index > last) push(out, run.slice(last, match.index), at + last);
        pairs(match[0], at + match.index, out);
        last = match.index + match[0].length;
      }
      if (last < run.length) push(out, run.slice(last), at + last);
    }),
};

function pairs(run: string, at: number, out: Token[]): void {
  const chars = Array.from(run);
  if (chars.length === 1) {
    push(out, run, at);
    return;
  }
  let offset = 0;
  for (let i = 0; i + 1 < chars.length; i++) {
    const first = chars[i] ?? '';
    push(out, first + (chars[i + 1] ?? ''), at + offset);
    offset += first.length;
  }
}

let chosen: Tokenizer | undefined;

/** The engine's segmenter if it has one, else {@link pairsTokenizer}. */
export function defaultTokenizer(): Tokenizer {
  if (!chosen) {
    const segmenter = engineSegmenter();
    chosen = segmenter ? segmenterTokenizer(segmenter) : pairsTokenizer;
  }
  return chosen;
}
