// Obvious placeholders that have a secret's shape (`glpat-xxxxxxxxxxxxxxxxxxxx`, `xoxb-your-token-here`), which
// docs and notes are full of: the secret check lets them through (./README.md, "Placeholders").

/** Words no real key holds by chance (in lower case): each is long, or `your` standing alone between non-letters. */
const WORDS = /example|placeholder|dummy|(?:^|[^a-z])your(?![a-z])/u;

/**
 * Eight of one character in a row (whitespace aside): about 1 in 10^11 for a real key's random body. Not for private
 * keys, whose base64 holds long runs of `A` (the zero bytes of an OpenSSH key).
 */
const RUN = /(\S)\1{7}/u;

export type PlaceholderRule = 'words' | 'words-and-runs';

/** Whether a match of a secret pattern is an obvious placeholder, by `rule`. */
export function isPlaceholder(match: string, rule: PlaceholderRule): boolean {
  return WORDS.test(match.toLowerCase()) || (rule === 'words-and-runs' && RUN.test(match));
}
