// The secret check: the providers' keys, private keys and cloud credentials, tuned to miss, not nag (./README.md).

import type { PlaceholderRule } from './placeholders.js';
import { PLACEHOLDER_REACH, isPlaceholder } from './placeholders.js';
import { PRIVATE_KEY } from './private-key.js';
import type { NextNeedle } from './needles.js';
import { needleFinder } from './needles.js';

/** A kind of secret and how to recognise it. */
export interface SecretPattern {
  /** What the text holds, in words Claude reads in the refusal, e.g. `an Anthropic API key`. */
  name: string;
  /** Matches the secret; tested with `test`, so leave out the `g` and `y` flags, which make it stateful. */
  pattern: RegExp;
}

/**
 * A default pattern, the needle every match of it holds within {@link NEEDLE_LEAD} characters of its start, and which
 * obvious placeholders it lets through (./placeholders.ts).
 */
export interface DefaultPattern extends SecretPattern {
  /** As a regular expression's source; found by ./needles.ts's searches, which the tests hold to it. */
  needle: string;
  placeholders: PlaceholderRule;
  /**
   * How far into a match a placeholder sign counts, where that is further than the pattern's shortest match: a little
   * short of the kind's real keys, so that a sign glued onto a whole key starts after it (./README.md, "Placeholders").
   */
  signsWithin?: number;
}

/** How far into a match its needle may start: `aws` comes before the AWS secret key's `_secret_access_key`. */
const NEEDLE_LEAD = 3;

/**
 * Where a provider's prefix may start: after a non-word character, as `\b` says, or after `_` (`MY_KEY_sk-ant-…`),
 * which the match then holds. Not for the short prefixes code names begin with (`hf_`, `ASIA`), where `_` would nag.
 */
const AFTER = String.raw`(?:\b|_)`;

const DEFAULT_PATTERNS: readonly DefaultPattern[] = [
  {
    name: 'an Anthropic API key',
    pattern: new RegExp(`${AFTER}sk-ant-[A-Za-z0-9_-]{20,}`, 'u'),
    needle: `${AFTER}sk-`,
    placeholders: 'words-and-runs',
    signsWithin: 100,
  },
  // Project, service-account and admin keys carry `-` and `_` after their kind; the older user keys are letters and
  // digits only (so `sk-learn-compatible-…` in prose is no key).
  {
    name: 'an OpenAI API key',
    pattern: new RegExp(`${AFTER}sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{32,}|[A-Za-z0-9]{32,})`, 'u'),
    needle: `${AFTER}sk-`,
    placeholders: 'words-and-runs',
    signsWithin: 48,
  },
  { name: 'a private key', pattern: PRIVATE_KEY, needle: '-----BEGIN ', placeholders: 'words' },
  {
    name: 'an AWS access key id',
    pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/u,
    needle: 'AKIA|ASIA|ABIA|ACCA',
    placeholders: 'words-and-runs',
  },
  // Any case, spelled out instead of the `i` flag so that the pattern joins the one-pass search below.
  {
    name: 'an AWS secret access key',
    pattern: new RegExp(`${anyCase('aws_secret_access_key')}\\s*[=:]\\s*["']?[A-Za-z0-9/+=]{40}`, 'u'),
    needle: anyCase('_secret_access_key'),
    placeholders: 'words-and-runs',
  },
  {
    name: 'a Google API key',
    pattern: new RegExp(String.raw`${AFTER}AIza[0-9A-Za-z_-]{35}\b`, 'u'),
    needle: 'AIza',
    placeholders: 'words-and-runs',
  },
  {
    name: 'a Google service account key',
    pattern: /"private_key_id"\s*:\s*"[0-9a-f]{20,}"/u,
    needle: '"private_key_id"',
    placeholders: 'words-and-runs',
  },
  {
    name: 'a Google OAuth token',
    pattern: new RegExp(String.raw`${AFTER}ya29\.[0-9A-Za-z_-]{20,}`, 'u'),
    needle: 'ya29\\.',
    placeholders: 'words-and-runs',
    signsWithin: 64,
  },
  {
    name: 'a GitHub token',
    pattern: new RegExp(`${AFTER}(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})`, 'u'),
    needle: 'gh[pousr]_|github_pat_',
    placeholders: 'words-and-runs',
  },
  {
    name: 'a GitLab token',
    pattern: new RegExp(`${AFTER}glpat-[A-Za-z0-9_-]{20,}`, 'u'),
    needle: 'glpat-',
    placeholders: 'words-and-runs',
  },
  {
    name: 'a Slack token',
    pattern: new RegExp(`${AFTER}xox[abposr]-[A-Za-z0-9-]{10,}`, 'u'),
    needle: 'xox[abposr]-',
    placeholders: 'words-and-runs',
    signsWithin: 40,
  },
  {
    name: 'a Stripe secret key',
    pattern: new RegExp(`${AFTER}[sr]k_live_[0-9A-Za-z]{20,}`, 'u'),
    needle: 'k_live_',
    placeholders: 'words-and-runs',
  },
  {
    name: 'an Azure storage key',
    pattern: /AccountKey=[A-Za-z0-9+/]{80,}={0,2}/u,
    needle: 'AccountKey=',
    placeholders: 'words-and-runs',
  },
  { name: 'a Hugging Face token', pattern: /\bhf_[A-Za-z0-9]{34,}/u, needle: '\\bhf_', placeholders: 'words-and-runs' },
];

/**
 * The kinds of secret `blockSecrets` refuses (API keys, private keys, cloud credentials); pass your own list to
 * {@link findSecret} to check others.
 */
export const SECRET_PATTERNS: readonly SecretPattern[] = DEFAULT_PATTERNS;

/** `word` matching in any case, as a pattern source (`ab` → `[Aa][Bb]`). */
function anyCase(word: string): string {
  return word.replace(/[a-z]/gu, (letter) => `[${letter.toUpperCase()}${letter}]`);
}

const DEFAULTS = new Set<SecretPattern>(DEFAULT_PATTERNS);

/** The patterns' regular expressions, built on first use. */
interface Scan {
  /** Every pattern, each as one group, its runs lazy: the shortest match at a place, which names the kind. */
  shortest: RegExp;
  /** Each pattern as it is, sticky: how far a match reaches, read on a bounded slice. */
  whole: ReadonlyMap<DefaultPattern, RegExp>;
}

let scan: Scan | undefined;

/** The name of the first kind of secret `text` holds, or undefined; an obvious placeholder is none. */
export function findSecret(text: string, patterns: readonly SecretPattern[] = SECRET_PATTERNS): string | undefined {
  if (patterns === SECRET_PATTERNS) return findDefaultSecret(text, needleFinder(text))?.name;
  return patterns.find((kind) =>
    DEFAULTS.has(kind) ? findDefaultSecret(text, needleFinder(text), kind) !== undefined : kind.pattern.test(text),
  )?.name;
}

/**
 * The first default kind (or `only` that kind) found in `text`, trying the places within {@link NEEDLE_LEAD} before
 * each needle start `next` gives (./needles.ts; tests give every place, the full scan), in time linear in the text's
 * length (./README.md, "Linear time"): all patterns as one alternation, each place tried once. Their sources join:
 * each default has the `u` flag alone, and no group of its own, so the group that matched names the kind.
 */
export function findDefaultSecret(text: string, next: NextNeedle, only?: SecretPattern): DefaultPattern | undefined {
  scan ??= buildScan();
  const { shortest, whole } = scan;
  let untried = 0;
  // On from the next character, not past this needle: needles may overlap (`AKIASIA`).
  for (let needle = next(0); needle !== -1; needle = next(needle + 1)) {
    for (let at = Math.max(untried, needle - NEEDLE_LEAD); at <= needle; at++) {
      shortest.lastIndex = at;
      const least = shortest.exec(text);
      if (!least) continue;
      // No two kinds match at one place (their prefixes differ), so a placeholder here is all there is here.
      const kind = DEFAULT_PATTERNS[least.findIndex((group, i) => i > 0 && group !== undefined) - 1];
      if (!kind || (only !== undefined && kind !== only)) continue;
      // The match as far as a placeholder sign that counts could reach: a bounded read, however long the match.
      const signs = Math.max(least[0].length, kind.signsWithin ?? 0);
      const pattern = whole.get(kind);
      if (pattern) pattern.lastIndex = 0;
      const match = pattern?.exec(text.slice(at, at + signs + PLACEHOLDER_REACH))?.[0] ?? least[0];
      if (!isPlaceholder(match, kind.placeholders, signs)) return kind;
    }
    untried = needle + 1;
  }
  return undefined;
}

function buildScan(): Scan {
  return {
    // `{20,}?` stops at 20: a read the length of the shortest key, however long the run of key characters.
    shortest: new RegExp(
      DEFAULT_PATTERNS.map(({ pattern }) => `(${pattern.source.replace(/\{(\d+),\}/gu, '{$1,}?')})`).join('|'),
      'uy',
    ),
    whole: new Map(DEFAULT_PATTERNS.map((kind) => [kind, new RegExp(kind.pattern.source, 'uy')])),
  };
}
