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

/** How far past where it starts a placeholder sign may reach: `placeholder`, 11 characters, and the one after it. */
export const PLACEHOLDER_REACH = 12;

/**
 * Whether a match of a secret pattern is an obvious placeholder, by `rule`: a placeholder sign (word or run) that
 * starts within its first `within` characters (a key of its kind is no shorter). A sign after those is glued onto a
 * whole key (`…AA` then `AAAAAA`, or `-example`), which stays a key.
 */
export function isPlaceholder(match: string, rule: PlaceholderRule, within = match.length): boolean {
  const word = WORDS.exec(match.toLowerCase());
  // `[^a-z]your` starts one before its word.
  if (word && word.index + (word[0].length === 5 ? 1 : 0) < within) return true;
  if (rule === 'words') return false;
  const run = RUN.exec(match);
  return run !== null && run.index < within;
}
