// The secret check's prefilter: where a default pattern's needle could start, found with indexOf, no regular expression.

/**
 * From `from` on, the first place a default pattern's needle starts (`sk-`, `AKIA`, `-----BEGIN `, …), or -1: every
 * place the needles' alternation would match, and a few more (`sk-` inside a word, `hf_` after a letter), which the
 * patterns' own try then refuses. Linear in the text whatever it holds: each search below moves only forward.
 */
export type NextNeedle = (from: number) => number;

/**
 * Whether `text` holds `word` (lower case letters and `_`) at `at`, its letters in any ASCII case: `| 0x20` lowers
 * `A`–`Z` and takes no other unit to `a`–`z`.
 */
function anyCaseAt(text: string, at: number, word: string): boolean {
  if (at < 0 || at + word.length > text.length) return false;
  for (let i = 0; i < word.length; i++) {
    const want = word.charCodeAt(i);
    const unit = text.charCodeAt(at + i);
    if (unit !== want && (want === 0x5f || (unit | 0x20) !== want)) return false;
  }
  return true;
}

/**
 * The first needle start at or after `min` that the `_` at `at` belongs to, or -1: GitHub's (`github_pat_`,
 * `gh[pousr]_`), Hugging Face's (`hf_`), Stripe's (`k_live_`) and the AWS secret key's (`_secret_access_key`, any case). Checked from the earliest start a `_` can have, six characters before it.
 */
function aroundUnderscore(text: string, at: number, min: number): number {
  if (at - 6 >= min && text.startsWith('github_pat_', at - 6)) return at - 6;
  if (at - 3 >= min && text.startsWith('gh', at - 3) && 'pousr'.includes(text.charAt(at - 1))) return at - 3;
  if (at - 2 >= min && text.startsWith('hf', at - 2)) return at - 2;
  if (at - 1 >= min && text.startsWith('k_live_', at - 1)) return at - 1;
  return anyCaseAt(text, at + 1, 'secret_access_key') ? at : -1;
}

/**
 * The first needle start from `from` that a `_` belongs to. A needle starts at most six characters before its `_`, so
 * once one is found, the `_`s up to six characters on may still hold one that starts earlier: the least is taken.
 */
function underscoreSearch(text: string, from: number): number {
  for (let at = text.indexOf('_', from); at !== -1; at = text.indexOf('_', at + 1)) {
    let first = aroundUnderscore(text, at, from);
    if (first === -1) continue;
    for (let later = text.indexOf('_', at + 1); later !== -1 && later <= at + 6; later = text.indexOf('_', later + 1)) {
      const start = aroundUnderscore(text, later, from);
      if (start !== -1 && start < first) first = start;
    }
    return first;
  }
  return -1;
}

/** Needles that start with `A`: the AWS key ids (`AKIA`, `ASIA`, `ABIA`, `ACCA`), Google's `AIza`, Azure's `AccountKey=`. */
function capitalASearch(text: string, from: number): number {
  for (let at = text.indexOf('A', from); at !== -1; at = text.indexOf('A', at + 1)) {
    const next = text.charCodeAt(at + 1);
    // K, S or B, then `IA`.
    if ((next === 0x4b || next === 0x53 || next === 0x42) && text.startsWith('IA', at + 2)) return at;
    if (text.startsWith('ACCA', at) || text.startsWith('AIza', at) || text.startsWith('AccountKey=', at)) return at;
  }
  return -1;
}

/** A search for the next needle start from a place; -1 once there is none. */
type Search = (text: string, from: number) => number;

/** A literal's places; `fits` checks what follows, where the literal is only the needle's start. */
function literalSearch(literal: string, fits?: (text: string, at: number) => boolean): Search {
  return (text, from) => {
    for (let at = text.indexOf(literal, from); at !== -1; at = text.indexOf(literal, at + 1)) {
      if (!fits || fits(text, at)) return at;
    }
    return -1;
  };
}

/** `sk-`, from the `_` before it when there is one: its needle, `(?:\b|_)sk-`, starts there. */
function skSearch(text: string, from: number): number {
  const at = text.indexOf('sk-', from);
  if (at === -1) return -1;
  return at - 1 >= from && text.charCodeAt(at - 1) === 0x5f ? at - 1 : at;
}

/** The searches: together they find every default pattern's needle (secrets.ts, `needle`). */
const SEARCHES: readonly Search[] = [
  skSearch,
  literalSearch('-----BEGIN '),
  capitalASearch,
  underscoreSearch,
  literalSearch('ya29.'),
  literalSearch('"private_key_id"'),
  literalSearch('glpat-'),
  // `xox[abposr]-`
  literalSearch('xox', (text, at) => 'abposr'.includes(text.charAt(at + 3)) && text.charAt(at + 4) === '-'),
];

/**
 * The needle starts of `text` in order, as {@link NextNeedle}, for `from`s that only grow: each search keeps its next
 * start, and searches on (from the new `from`) only once that start falls behind.
 */
export function needleFinder(text: string): NextNeedle {
  // Each search's next start, -1 when it has none left; -2 before its first search.
  const next = SEARCHES.map(() => -2);
  return (from) => {
    let first = -1;
    for (let i = 0; i < SEARCHES.length; i++) {
      let at = next[i] ?? -1;
      if (at === -2 || (at !== -1 && at < from)) {
        at = SEARCHES[i]?.(text, from) ?? -1;
        next[i] = at;
      }
      if (at !== -1 && (first === -1 || at < first)) first = at;
    }
    return first;
  };
}
