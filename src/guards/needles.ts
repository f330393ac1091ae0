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

/** The UTF-16 unit of a one-character string. */
const unit = (char: string): number => char.charCodeAt(0);
const [LOWER_B, LOWER_E, LOWER_F, LOWER_G, LOWER_H, LOWER_K, LOWER_S, LOWER_T] = [...'befghkst'].map(unit);
const [UPPER_A, UPPER_B, UPPER_C, UPPER_I, UPPER_K, UPPER_S, LOWER_C, DASH] = [...'ABCIKSc-'].map(unit);
const UNDERSCORE = unit('_');
const [LOWER_O, LOWER_P, LOWER_R, LOWER_U, LOWER_LETTER_A] = [...'opura'].map(unit);
/** GitHub's token kinds, the letter before the `_` of `gh[pousr]_` (compares: a set's look-up costs more, per `_`). */
const githubKind = (u: number): boolean => u === LOWER_P || u === LOWER_O || u === LOWER_U || u === LOWER_S || u === LOWER_R;
/** Slack's token kinds, the letter before the `-` of `xox[abposr]-`. */
const slackKind = (u: number): boolean =>
  u === LOWER_LETTER_A || u === LOWER_B || u === LOWER_P || u === LOWER_O || u === LOWER_S || u === LOWER_R;

/**
 * The needle start at or after `min` that the `_` at `at` belongs to, or -1: GitHub's (`github_pat_`, `gh[pousr]_`),
 * Hugging Face's (`hf_`), Stripe's (`k_live_`), Google's service account's (`"private_key_id"`) and the AWS secret
 * key's (`_secret_access_key`, any case). The character before the `_` (after it, for the AWS label) rules most out.
 */
function aroundUnderscore(text: string, at: number, min: number): number {
  const before = text.charCodeAt(at - 1);
  if (before === LOWER_B) {
    if (at - 6 >= min && text.startsWith('github_pat_', at - 6)) return at - 6;
  } else if (before === LOWER_F) {
    if (at - 2 >= min && text.charCodeAt(at - 2) === LOWER_H) return at - 2;
  } else if (before === LOWER_K) {
    if (at - 1 >= min && text.startsWith('_live_', at)) return at - 1;
  } else if (before === LOWER_E) {
    if (at - 8 >= min && text.startsWith('"private_key_id"', at - 8)) return at - 8;
  } else if (githubKind(before)) {
    if (at - 3 >= min && text.charCodeAt(at - 3) === LOWER_G && text.charCodeAt(at - 2) === LOWER_H) return at - 3;
  }
  return (text.charCodeAt(at + 1) | 0x20) === LOWER_S && anyCaseAt(text, at + 1, 'secret_access_key') ? at : -1;
}

/**
 * The needle start at or after `min` that the `-` at `at` belongs to, or -1: Anthropic's and OpenAI's (`sk-`, from
 * the `_` before it when there is one: their needle is `(?:\b|_)sk-`), GitLab's (`glpat-`), Slack's (`xox[abposr]-`)
 * and a private key's (`-----BEGIN `).
 */
function aroundDash(text: string, at: number, min: number): number {
  const before = text.charCodeAt(at - 1);
  if (before === LOWER_K) {
    if (text.charCodeAt(at - 2) === LOWER_S && at - 2 >= min) return at - 3 >= min && text.charCodeAt(at - 3) === UNDERSCORE ? at - 3 : at - 2;
  } else if (before === LOWER_T) {
    if (at - 5 >= min && text.startsWith('glpa', at - 5)) return at - 5;
  } else if (slackKind(before)) {
    if (at - 4 >= min && text.startsWith('xox', at - 4)) return at - 4;
  }
  return text.charCodeAt(at + 1) === DASH && text.startsWith('-----BEGIN ', at) ? at : -1;
}

/** Whether a needle starting with `A` starts at `at`: the AWS key ids (`AKIA`, `ASIA`, `ABIA`, `ACCA`), `AIza`, `AccountKey=`. */
function aroundCapitalA(text: string, at: number): number {
  const next = text.charCodeAt(at + 1);
  if (next === UPPER_K || next === UPPER_S || next === UPPER_B) {
    return text.charCodeAt(at + 2) === UPPER_I && text.charCodeAt(at + 3) === UPPER_A ? at : -1;
  }
  if (next === UPPER_C) return text.charCodeAt(at + 2) === UPPER_C && text.charCodeAt(at + 3) === UPPER_A ? at : -1;
  if (next === UPPER_I) return text.startsWith('za', at + 2) ? at : -1;
  return next === LOWER_C && text.startsWith('countKey=', at + 2) ? at : -1;
}

/** A search for the next needle start from a place; -1 once there is none. */
type Search = (text: string, from: number) => number;

/**
 * The needles found around one character (`_`, `-`, `A`): each of its places found with `indexOf`, a call JavaScriptCore
 * makes as fast as the others (a regular expression of the needles it tried at every position), and checked by reading
 * a few units around it. A needle starts at most `reach` units before its character, so once one is found, the same
 * character up to `reach` units on may hold one that starts earlier: the least is taken.
 */
function charSearch(char: string, reach: number, startAround: (text: string, at: number, min: number) => number): Search {
  return (text, from) => {
    for (let at = text.indexOf(char, from); at !== -1; at = text.indexOf(char, at + 1)) {
      let first = startAround(text, at, from);
      if (first === -1) continue;
      for (let later = text.indexOf(char, at + 1); later !== -1 && later <= at + reach; later = text.indexOf(char, later + 1)) {
        const start = startAround(text, later, from);
        if (start !== -1 && start < first) first = start;
      }
      return first;
    }
    return -1;
  };
}

/** The searches: together they find every default pattern's needle (secrets.ts, `needle`). */
const SEARCHES: readonly Search[] = [
  charSearch('_', 8, aroundUnderscore),
  charSearch('-', 5, aroundDash),
  charSearch('A', 0, (text, at) => aroundCapitalA(text, at)),
  (text, from) => text.indexOf('ya29.', from),
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
