// The secret check: the providers' keys, private keys and cloud credentials, tuned to miss, not nag (./README.md).

/** A kind of secret and how to recognise it. */
export interface SecretPattern {
  name: string;
  pattern: RegExp;
}

/** A default pattern and the needle every match of it holds within {@link NEEDLE_LEAD} characters of its start. */
interface DefaultPattern extends SecretPattern {
  needle: string;
}

/** How far into a match its needle may start: `aws` comes before the AWS secret key's `_secret_access_key`. */
const NEEDLE_LEAD = 3;

const DEFAULT_PATTERNS: readonly DefaultPattern[] = [
  { name: 'an Anthropic API key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/u, needle: '\\bsk-' },
  // Project, service-account and admin keys carry `-` and `_` after their kind; the older user keys are letters and
  // digits only (so `sk-learn-compatible-…` in prose is no key).
  {
    name: 'an OpenAI API key',
    pattern: /\bsk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{32,}|[A-Za-z0-9]{32,})/u,
    needle: '\\bsk-',
  },
  { name: 'a private key', pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/u, needle: '-----BEGIN ' },
  { name: 'an AWS access key id', pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/u, needle: 'AKIA|ASIA|ABIA|ACCA' },
  // Any case, spelled out instead of the `i` flag so that the pattern joins the one-pass search below.
  {
    name: 'an AWS secret access key',
    pattern: new RegExp(`${anyCase('aws_secret_access_key')}\\s*[=:]\\s*["']?[A-Za-z0-9/+=]{40}`, 'u'),
    needle: anyCase('_secret_access_key'),
  },
  { name: 'a Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/u, needle: 'AIza' },
  {
    name: 'a Google service account key',
    pattern: /"private_key_id"\s*:\s*"[0-9a-f]{20,}"/u,
    needle: '"private_key_id"',
  },
  { name: 'a Google OAuth token', pattern: /\bya29\.[0-9A-Za-z_-]{20,}/u, needle: 'ya29\\.' },
  {
    name: 'a GitHub token',
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})/u,
    needle: 'gh[pousr]_|github_pat_',
  },
  { name: 'a GitLab token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/u, needle: 'glpat-' },
  { name: 'a Slack token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/u, needle: 'xox[abposr]-' },
  { name: 'a Stripe secret key', pattern: /\b[sr]k_live_[0-9A-Za-z]{20,}/u, needle: 'k_live_' },
  { name: 'an Azure storage key', pattern: /AccountKey=[A-Za-z0-9+/]{80,}={0,2}/u, needle: 'AccountKey=' },
  { name: 'a Hugging Face token', pattern: /\bhf_[A-Za-z0-9]{34,}/u, needle: '\\bhf_' },
];

export const SECRET_PATTERNS: readonly SecretPattern[] = DEFAULT_PATTERNS;

/** `word` matching in any case, as a pattern source (`ab` → `[Aa][Bb]`). */
function anyCase(word: string): string {
  return word.replace(/[a-z]/gu, (letter) => `[${letter.toUpperCase()}${letter}]`);
}

let needles: RegExp | undefined;
let anySecret: RegExp | undefined;

/** The name of the first kind of secret `text` holds, or undefined. */
export function findSecret(text: string, patterns: readonly SecretPattern[] = SECRET_PATTERNS): string | undefined {
  if (patterns === SECRET_PATTERNS && !holdsDefaultSecret(text)) return undefined;
  return patterns.find(({ pattern }) => pattern.test(text))?.name;
}

/**
 * Whether a default pattern matches in `text`: one pass for the needles, then all patterns as one alternation where a
 * match holding a needle could start (./README.md). Their sources join: each default has the `u` flag alone.
 */
function holdsDefaultSecret(text: string): boolean {
  needles ??= new RegExp([...new Set(DEFAULT_PATTERNS.map(({ needle }) => needle))].join('|'), 'gu');
  anySecret ??= new RegExp(DEFAULT_PATTERNS.map(({ pattern }) => `(?:${pattern.source})`).join('|'), 'uy');
  needles.lastIndex = 0;
  for (let found = needles.exec(text); found; found = needles.exec(text)) {
    for (let at = Math.max(0, found.index - NEEDLE_LEAD); at <= found.index; at++) {
      anySecret.lastIndex = at;
      if (anySecret.test(text)) return true;
    }
    // On from the next character, not past this needle: needles may overlap (`AKIASIA`).
    needles.lastIndex = found.index + 1;
  }
  return false;
}

/** How far around an edit the secret check looks: further than any credential is written out in practice. */
export const SECRET_CONTEXT = 512;

const isSpace = (unit: number): boolean => unit === 0x20 || (unit >= 0x09 && unit <= 0x0d);

/** {@link findSecret} on an edit's span and {@link SECRET_CONTEXT} characters either side, widened to whitespace. */
export function findSecretAround(text: string, from: number, to: number): string | undefined {
  let start = Math.max(0, from - SECRET_CONTEXT);
  let end = Math.min(text.length, to + SECRET_CONTEXT);
  const startLimit = Math.max(0, start - SECRET_CONTEXT);
  const endLimit = Math.min(text.length, end + SECRET_CONTEXT);
  while (start > startLimit && !isSpace(text.charCodeAt(start - 1))) start--;
  while (end < endLimit && !isSpace(text.charCodeAt(end))) end++;
  return findSecret(text.slice(start, end));
}
