// The secret check: the providers' keys, private keys and cloud credentials, tuned to miss, not nag (./README.md).

import type { PlaceholderRule } from './placeholders.js';
import { isPlaceholder } from './placeholders.js';
import { PRIVATE_KEY } from './private-key.js';

/** A kind of secret and how to recognise it. */
export interface SecretPattern {
  name: string;
  pattern: RegExp;
}

/**
 * A default pattern, the needle every match of it holds within {@link NEEDLE_LEAD} characters of its start, and which
 * obvious placeholders it lets through (./placeholders.ts).
 */
interface DefaultPattern extends SecretPattern {
  needle: string;
  placeholders: PlaceholderRule;
}

/** How far into a match its needle may start: `aws` comes before the AWS secret key's `_secret_access_key`. */
const NEEDLE_LEAD = 3;

const DEFAULT_PATTERNS: readonly DefaultPattern[] = [
  {
    name: 'an Anthropic API key',
    pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/u,
    needle: '\\bsk-',
    placeholders: 'words-and-runs',
  },
  // Project, service-account and admin keys carry `-` and `_` after their kind; the older user keys are letters and
  // digits only (so `sk-learn-compatible-…` in prose is no key).
  {
    name: 'an OpenAI API key',
    pattern: /\bsk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{32,}|[A-Za-z0-9]{32,})/u,
    needle: '\\bsk-',
    placeholders: 'words-and-runs',
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
  { name: 'a Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/u, needle: 'AIza', placeholders: 'words-and-runs' },
  {
    name: 'a Google service account key',
    pattern: /"private_key_id"\s*:\s*"[0-9a-f]{20,}"/u,
    needle: '"private_key_id"',
    placeholders: 'words-and-runs',
  },
  {
    name: 'a Google OAuth token',
    pattern: /\bya29\.[0-9A-Za-z_-]{20,}/u,
    needle: 'ya29\\.',
    placeholders: 'words-and-runs',
  },
  {
    name: 'a GitHub token',
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})/u,
    needle: 'gh[pousr]_|github_pat_',
    placeholders: 'words-and-runs',
  },
  { name: 'a GitLab token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/u, needle: 'glpat-', placeholders: 'words-and-runs' },
  {
    name: 'a Slack token',
    pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/u,
    needle: 'xox[abposr]-',
    placeholders: 'words-and-runs',
  },
  {
    name: 'a Stripe secret key',
    pattern: /\b[sr]k_live_[0-9A-Za-z]{20,}/u,
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

export const SECRET_PATTERNS: readonly SecretPattern[] = DEFAULT_PATTERNS;

/** `word` matching in any case, as a pattern source (`ab` → `[Aa][Bb]`). */
function anyCase(word: string): string {
  return word.replace(/[a-z]/gu, (letter) => `[${letter.toUpperCase()}${letter}]`);
}

const RULES = new Map<SecretPattern, PlaceholderRule>(DEFAULT_PATTERNS.map((kind) => [kind, kind.placeholders]));

let needles: RegExp | undefined;
let anySecret: RegExp | undefined;

/** The name of the first kind of secret `text` holds, or undefined; an obvious placeholder is none. */
export function findSecret(text: string, patterns: readonly SecretPattern[] = SECRET_PATTERNS): string | undefined {
  if (patterns === SECRET_PATTERNS) return firstDefaultSecret(text)?.name;
  return patterns.find((kind) => holds(text, kind))?.name;
}

/** Whether `text` holds a match of `kind` (of a default kind: one that is not a placeholder). */
function holds(text: string, kind: SecretPattern): boolean {
  const rule = RULES.get(kind);
  if (rule === undefined) return kind.pattern.test(text);
  for (const match of text.matchAll(new RegExp(kind.pattern.source, 'gu'))) {
    if (!isPlaceholder(match[0], rule)) return true;
  }
  return false;
}

/**
 * The first default kind found in `text`: one pass for the needles, then all patterns as one alternation where a
 * match holding a needle could start (./README.md). Their sources join: each default has the `u` flag alone, and no
 * group of its own, so the group that matched names the kind.
 */
function firstDefaultSecret(text: string): DefaultPattern | undefined {
  needles ??= new RegExp([...new Set(DEFAULT_PATTERNS.map(({ needle }) => needle))].join('|'), 'gu');
  anySecret ??= new RegExp(DEFAULT_PATTERNS.map(({ pattern }) => `(${pattern.source})`).join('|'), 'uy');
  needles.lastIndex = 0;
  for (let found = needles.exec(text); found; found = needles.exec(text)) {
    for (let at = Math.max(0, found.index - NEEDLE_LEAD); at <= found.index; at++) {
      anySecret.lastIndex = at;
      const match = anySecret.exec(text);
      if (!match) continue;
      // No two kinds match at one place (their prefixes differ), so a placeholder here is all there is here.
      const kind = DEFAULT_PATTERNS[match.findIndex((group, i) => i > 0 && group !== undefined) - 1];
      if (kind && !isPlaceholder(match[0], kind.placeholders)) return kind;
    }
    // On from the next character, not past this needle: needles may overlap (`AKIASIA`).
    needles.lastIndex = found.index + 1;
  }
  return undefined;
}
