// Placeholders pass, but a placeholder sign glued onto a whole key does not excuse it (src/guards/placeholders.ts);
// a key right after `_` is found; and the docs' placeholders and code names still pass.

import { describe, expect, it } from 'vitest';
import { findSecret } from '../../src/guards/secrets.js';
import { ALNUM, body, fake } from './fake-secrets.js';

const URL_SAFE = `${ALNUM}-_`;

/** Real-looking keys at their real lengths (an Anthropic key ends in `AA`). */
const KEYS: Array<[string, string]> = [
  ['an Anthropic API key', fake('sk-ant-api03-', `${body(93, URL_SAFE)}AA`)],
  ['an OpenAI API key', fake('sk-proj-', body(156, URL_SAFE, 2))],
  ['an OpenAI API key', fake('sk-', body(48, ALNUM, 3))],
  ['a GitHub token', fake('ghp_', body(36, ALNUM, 4))],
  ['a GitHub token', fake('github_pat_', `11${body(20, ALNUM, 5)}_${body(59, ALNUM, 6)}`)],
  ['a GitLab token', fake('glpat-', body(20, URL_SAFE, 7))],
  ['a Slack token', fake('xoxb-', `123456789012-1234567890123-${body(24, ALNUM, 8)}`)],
  ['a Stripe secret key', fake('sk_live_', body(24, ALNUM, 9))],
  ['a Google OAuth token', fake('ya29.', body(160, URL_SAFE, 10))],
  ['a Hugging Face token', fake('hf_', body(34, ALNUM, 11))],
];

describe('a placeholder sign glued onto a whole key', () => {
  it.each(KEYS)('does not excuse %s: %s', (name, key) => {
    // Each glued sign is of characters the kind's pattern reads on through, so it is part of the match.
    const glue = /[-_]/u.test(key.slice(-30)) || key.startsWith('xox') ? ['-example', '-your-key', '-placeholder'] : [];
    for (const sign of [...glue, 'EXAMPLE', 'Dummy', 'AAAAAAAA', 'xxxxxxxxxxxx', '00000000']) {
      expect(findSecret(`config: ${key}${sign} end`)).toBe(name);
    }
  });

  it('refuses a key ending in AA with AAAAAA glued on (eight in a row)', () => {
    const key = KEYS[0]?.[1] ?? '';
    expect(findSecret(`${key}AAAAAA`)).toBe('an Anthropic API key');
  });
});

describe('a key right after _', () => {
  it.each(KEYS.filter(([name]) => name !== 'a Hugging Face token'))('finds %s: MY_KEY_%s', (name, key) => {
    expect(findSecret(`MY_KEY_${key}`)).toBe(name);
    expect(findSecret(`export SECRET__${key}`)).toBe(name);
  });

  it('finds a Google API key after _', () => {
    expect(findSecret(fake('MAPS_KEY_AIza', body(35, URL_SAFE, 12)))).toBe('a Google API key');
  });
});

describe('placeholders in docs and code names', () => {
  it.each([
    `export ANTHROPIC_API_KEY=${fake('sk-ant-api03-', 'x'.repeat(95))}`,
    `MY_KEY_${fake('sk-ant-', 'your-key-here-please')}`,
    `ANTHROPIC_API_KEY=${fake('sk-ant-api03-', 'REPLACE_ME_WITH_YOUR_KEY_FROM_THE_CONSOLE')}`,
    `OPENAI_API_KEY=${fake('sk-proj-', 'X'.repeat(48))}`,
    `OPENAI_API_KEY=${fake('sk-proj-', 'paste-the-key-from-your-dashboard-right-here')}`,
    `GITHUB_TOKEN=${fake('ghp_', 'x'.repeat(36))}`,
    `token = "${fake('github_pat_', `put_your_fine_grained_token_here_${'0'.repeat(20)}`)}"`,
    `SLACK_BOT_TOKEN=${fake('xoxb-', 'not-a-real-token-just-an-example')}`,
    `STRIPE_KEY=${fake('sk_live_', 'EXAMPLEKEYDONOTUSE1234')}`,
    fake('sk-ant-api03-', `example-${'A'.repeat(40)}`),
    // Code names: `hf_` and the AWS prefixes keep a word boundary, as identifiers start with them after `_`.
    `model = ${fake('load_hf_', 'AutoModelForSequenceClassification')}()`,
    `REGION = ${fake('AWS_REGION_ASIA', 'PACIFICSOUTHEAST')}`,
    'def risk_sk-learn-compatible-estimator-wrappers-for-pipelines(): pass',
    'the task-ant-colony-optimization-and-routing-heuristics run nightly',
    'the_sk_live_mode_setting_is_documented_in_the_wiki_page',
  ])('passes: %s', (text) => {
    expect(findSecret(text)).toBeUndefined();
  });
});
