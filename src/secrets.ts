// The default guard against storing credentials: patterns for the API keys of the major providers,
// private key blocks and cloud credentials. Pure. Tuned to miss rather than to nag: each pattern needs
// the provider's own prefix or a key/value shape, so prose about keys is never refused.

/** A kind of secret and how to recognise it. */
export interface SecretPattern {
  name: string;
  pattern: RegExp;
}

export const SECRET_PATTERNS: readonly SecretPattern[] = [
  { name: 'an Anthropic API key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/u },
  // Project, service-account and admin keys carry `-` and `_` after their kind; the older user keys are letters and
  // digits only (so `sk-learn-compatible-…` in prose is no key).
  { name: 'an OpenAI API key', pattern: /\bsk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{32,}|[A-Za-z0-9]{32,})/u },
  { name: 'a private key', pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/u },
  { name: 'an AWS access key id', pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/u },
  // Any case, spelled out instead of the `i` flag so that the pattern joins the one-pass search below.
  { name: 'an AWS secret access key', pattern: new RegExp(`${anyCase('aws_secret_access_key')}\\s*[=:]\\s*["']?[A-Za-z0-9/+=]{40}`, 'u') },
  { name: 'a Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/u },
  { name: 'a Google service account key', pattern: /"private_key_id"\s*:\s*"[0-9a-f]{20,}"/u },
  { name: 'a Google OAuth token', pattern: /\bya29\.[0-9A-Za-z_-]{20,}/u },
  { name: 'a GitHub token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})/u },
  { name: 'a GitLab token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/u },
  { name: 'a Slack token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/u },
  { name: 'a Stripe secret key', pattern: /\b[sr]k_live_[0-9A-Za-z]{20,}/u },
  { name: 'an Azure storage key', pattern: /AccountKey=[A-Za-z0-9+/]{80,}={0,2}/u },
  { name: 'a Hugging Face token', pattern: /\bhf_[A-Za-z0-9]{34,}/u },
];

/** `word` matching in any case, as a pattern source (`ab` → `[Aa][Bb]`). */
function anyCase(word: string): string {
  return word.replace(/[a-z]/gu, (letter) => `[${letter.toUpperCase()}${letter}]`);
}

let anySecret: RegExp | undefined;

/** The name of the first kind of secret `text` holds, or undefined. */
export function findSecret(text: string, patterns: readonly SecretPattern[] = SECRET_PATTERNS): string | undefined {
  if (patterns === SECRET_PATTERNS) {
    // One pass of all the default patterns as one alternation clears ordinary text several times faster than a
    // pass per pattern (a megabyte is written on every edit of a big file); only a hit is named, pattern by pattern.
    // Every default pattern has the `u` flag alone, so their sources join without changing meaning.
    anySecret ??= new RegExp(SECRET_PATTERNS.map(({ pattern }) => `(?:${pattern.source})`).join('|'), 'u');
    if (!anySecret.test(text)) return undefined;
  }
  return patterns.find(({ pattern }) => pattern.test(text))?.name;
}

/**
 * How far around an edit the secret check looks: further than any credential these patterns match as they are
 * written out in practice, so a secret the edit completes is seen whole. Text further away is not checked again.
 */
export const SECRET_CONTEXT = 512;

const isSpace = (unit: number): boolean => unit === 0x20 || (unit >= 0x09 && unit <= 0x0d);

/**
 * {@link findSecret} on the part of `text` an edit changed (`from` to `to`, UTF-16 offsets) and
 * {@link SECRET_CONTEXT} characters either side, widened to whitespace so that no word is cut (a cut word
 * would look like a fresh word to the patterns' `\b`): an edit of a big file is checked for what it brings,
 * not for the whole file again.
 */
export function findSecretAround(text: string, from: number, to: number): string | undefined {
  let start = Math.max(0, from - SECRET_CONTEXT);
  let end = Math.min(text.length, to + SECRET_CONTEXT);
  const startLimit = Math.max(0, start - SECRET_CONTEXT);
  const endLimit = Math.min(text.length, end + SECRET_CONTEXT);
  while (start > startLimit && !isSpace(text.charCodeAt(start - 1))) start--;
  while (end < endLimit && !isSpace(text.charCodeAt(end))) end++;
  return findSecret(text.slice(start, end));
}
