// The secret filter and beforeWrite: obvious credentials are refused with a message telling Claude not to
// store them, prose about keys is not, the filter can be switched off, and beforeWrite can refuse or rewrite.

import { describe, expect, it } from 'vitest';
import { SECRET_CONTEXT } from '../../src/guards/edit-window.js';
import { SECRET_PATTERNS, findSecret } from '../../src/guards/secrets.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { spyDuring } from '../helpers/request-spy.js';
import { BASE64, HEX, OPENSSH_BODY_START, body, fake, pemFooter, pemHeader } from './fake-secrets.js';

const open = toolsClosedAfterEach('secrets');

// Built at run time (./fake-secrets.ts), with bodies that look random as real keys do.
const SECRETS: Array<[string, string]> = [
  ['an Anthropic API key', fake('sk-ant-api03-', body(40))],
  ['an OpenAI API key', fake('sk-proj-', 'b1'.repeat(24))],
  ['an OpenAI API key', fake('sk-proj-', 'Ab_c-'.repeat(30))],
  ['an OpenAI API key', fake('sk-svcacct-', 'Zx9-_'.repeat(20))],
  ['an OpenAI API key', fake('sk-', 'T3BlbkFJ'.repeat(6))],
  ['a private key', `${pemHeader('RSA')}\nMIIE...\n${pemFooter('RSA')}`],
  ['a private key', `${pemHeader('OPENSSH')}\n${OPENSSH_BODY_START}\n${body(70, BASE64)}`],
  ['an AWS access key id', fake('AKIA', 'ABCDEFGHIJKLMNOP')],
  ['an AWS secret access key', `aws_secret_access_key = ${body(40, BASE64)}`],
  ['a Google API key', fake('AIza', body(35))],
  ['a GitHub token', fake('ghp_', body(36))],
  ['a Slack token', fake('xoxb-', '1234567890-abcdef')],
  ['a Stripe secret key', fake('sk_live_', body(24))],
  // Every kind, and each spelling of its prefix: the one-pass search looks for these first (secrets.ts `needle`).
  ['an AWS access key id', fake('ASIA', 'QRSTUVWXYZ234567')],
  ['an AWS secret access key', `AWS_SECRET_ACCESS_KEY: "${body(40, BASE64, 2)}"`],
  ['a Google service account key', `"private_key_id": "${'0f'.repeat(20)}"`],
  ['a Google OAuth token', fake('ya29.', 'a0AfH6'.repeat(5))],
  ['a GitHub token', fake('github_pat_', '11AB_'.repeat(10))],
  ['a GitLab token', fake('glpat-', 'Xy_9-'.repeat(5))],
  ['a Slack token', fake('xoxp-', '9876543210-zyx')],
  ['a Stripe secret key', fake('rk_live_', body(24, undefined, 3))],
  ['an Azure storage key', fake('AccountKey=', 'k+/9'.repeat(22) + '==')],
  ['a Hugging Face token', fake('hf_', 'Hf0'.repeat(12))],
  // Private keys as they are pasted: on one line, JSON-escaped (a service account file), encrypted, PGP, CRLF.
  ['a private key', `${pemHeader('RSA')} MIIEowIBAAKCAQEA${body(40, BASE64)} ${pemFooter('RSA')}`],
  ['a private key', `{"private_key": "${pemHeader('')}\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC${body(30, BASE64)}\\n"}`],
  ['a private key', `${pemHeader('RSA')}\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,${body(32, HEX)}\n\n${body(64, BASE64)}`],
  ['a private key', `${pemHeader('PGP', ' BLOCK')}\nVersion: GnuPG v2\n\nlQOYBF${body(60, BASE64)}`],
  ['a private key', `${pemHeader('EC')}\r\n${body(64, BASE64)}\r\n`],
];

describe('findSecret', () => {
  it.each(SECRETS)('recognises %s', (name, text) => {
    expect(findSecret(`note: ${text} end`)).toBe(name);
  });

  it.each([
    'Remember: the user keeps their API key in a password manager.',
    'sk-ant- prefixes mark Anthropic keys; never store one.',
    'The AKIA prefix is for AWS access keys.',
    '-----BEGIN PUBLIC KEY-----',
    'ghp_ is a GitHub token prefix',
    'We use sk-learn-compatible-estimator-wrappers-for-pipelines here',
    'prefers sk-learn-style-pipelines-and-feature-unions-over-custom-code',
    'Set ANTHROPIC_API_KEY=<your-api-key> before running it',
    'Anthropic keys look like sk-ant-... and are shown once',
    'curl -H "x-api-key: sk-ant-api03-..." https://api.anthropic.com/v1/models',
  ])('lets prose about keys through: %s', (text) => {
    expect(findSecret(text)).toBeUndefined();
  });

  it.each([
    `paste the key that starts with ${pemHeader('')} here`,
    `note: ${pemHeader('OPENSSH')} end`,
    `A PEM key begins with ${pemHeader('RSA')} and ends with ${pemFooter('RSA')}.`,
    `The file must start with\n${pemHeader('EC')}\nfollowed by the base64 lines.`,
    `the first line is ${pemHeader('')}`,
    `${pemHeader('')}\nyour key here\n${pemFooter('')}`,
    `${pemHeader('')}\n<paste the key>\n${pemFooter('')}`,
  ])('lets prose that names a private key header through, with no key body: %s', (text) => {
    expect(findSecret(text)).toBeUndefined();
  });

  // Each was refused before placeholders passed.
  it.each([
    fake('xoxb-', 'your-token-here'),
    fake('glpat-', 'x'.repeat(20)),
    fake('AKIA', 'X'.repeat(16)),
    fake('AKIA', 'IOSFODNN7EXAMPLE'),
    `aws_secret_access_key = ${'wJalrXUtnFEMI/K7MDENG/bPxRfiCY'}EXAMPLEKEY`,
    `AWS_SECRET_ACCESS_KEY=${'0'.repeat(40)}`,
    fake('sk-ant-api03-', 'x'.repeat(40)),
    fake('sk-ant-api03-', `your-key-goes-here-${body(10)}`),
    fake('sk-proj-', `YOUR_OPENAI_API_KEY_${body(20)}`),
    fake('sk-', 'X'.repeat(48)),
    fake('ghp_', 'x'.repeat(36)),
    fake('github_pat_', `11ABCDEFG0_dummy${body(30)}`),
    fake('sk_live_', '0'.repeat(24)),
    fake('rk_live_', `placeholder${body(12)}`),
    fake('AIza', `Sy-example-${body(24)}`),
    fake('hf_', 'a'.repeat(34)),
    fake('ya29.', `your_access_token_${body(8)}`),
    fake('xoxp-', '0000000000-0000000000'),
    `"private_key_id": "${'0'.repeat(40)}"`,
    fake('AccountKey=', `${'A'.repeat(86)}==`),
  ])('lets an obvious placeholder through: %s', (text) => {
    expect(findSecret(`config: ${text} end`)).toBeUndefined();
  });

  it('tells a placeholder from a real-looking key beside it, or one whose body holds a placeholder word inside another', () => {
    expect(findSecret(`${fake('glpat-', 'x'.repeat(20))} then ${fake('glpat-', 'your-token')}`)).toBeUndefined();
    expect(findSecret(`${fake('glpat-', 'x'.repeat(20))} then ${fake('glpat-', body(20))}`)).toBe('a GitLab token');
    expect(findSecret(`${fake('AKIA', 'X'.repeat(16))}\n${fake('AKIA', 'ABCDEFGHIJKLMNOP')}`)).toBe('an AWS access key id');
    // `your` inside a word, seven of a kind in a row, a run of A's in a private key's base64: no placeholder.
    expect(findSecret(fake('ghp_', `${body(16)}Yourself${body(12)}`))).toBe('a GitHub token');
    expect(findSecret(fake('ghp_', `${body(20)}${'x'.repeat(7)}${body(9)}`))).toBe('a GitHub token');
    expect(findSecret(`${pemHeader('OPENSSH')}\n${OPENSSH_BODY_START}`)).toBe('a private key');
  });
});

describe('findSecret, one pass for the default patterns', () => {
  it('names the same kind as a pass per pattern, for every known kind in any position', () => {
    const filler = 'plain words\n'.repeat(300);
    for (const [, secret] of SECRETS) {
      for (const text of [secret, `${filler}${secret}`, `${secret}\n${filler}`, `${filler}(${secret})${filler}`]) {
        const oneByOne = SECRET_PATTERNS.find(({ pattern }) => pattern.test(text))?.name;
        expect(oneByOne).toBeDefined();
        expect(findSecret(text)).toBe(oneByOne);
      }
    }
    expect(findSecret(filler)).toBeUndefined();
  });

  it('looks past prefixes that start no secret, to the one that does', () => {
    // Each of these holds a needle the first pass stops at; only the last line is a key.
    const decoys = [
      'sk- is a prefix; so are AKIA and AIza; hf_ and glpat- too',
      '-----BEGIN CERTIFICATE-----',
      'xoxb- then nothing; ya29. then nothing; "private_key_id": "short"',
      'AccountKey=short; sk_live_; github_pat_; aws_secret_access_key = short',
    ].join('\n').repeat(50);
    expect(findSecret(decoys)).toBeUndefined();
    for (const [name, secret] of SECRETS) expect(findSecret(`${decoys}\n${secret}\n${decoys}`)).toBe(name);
  });

  it('reads the AWS secret key name in any case, without the i flag', () => {
    const value = body(40, BASE64);
    for (const name of ['aws_secret_access_key', 'AWS_SECRET_ACCESS_KEY', 'Aws_Secret_Access_Key']) {
      expect(findSecret(`${name}=${value}`)).toBe('an AWS secret access key');
    }
  });

  it('joins only patterns whose sole flag is u (their sources then mean the same in one alternation)', () => {
    expect(SECRET_PATTERNS.map(({ pattern }) => pattern.flags)).toEqual(SECRET_PATTERNS.map(() => 'u'));
  });

  it('uses the patterns it is given instead', () => {
    const mine = [{ name: 'a ticket number', pattern: /\bTICKET-\d{4}\b/u }];
    expect(findSecret('see TICKET-1234', mine)).toBe('a ticket number');
    expect(findSecret(SECRETS[0]?.[1] ?? '', mine)).toBeUndefined();
  });
});

describe('the default filter', () => {
  it('refuses to store a secret through create, str_replace and insert, writing nothing', async () => {
    const tool = await open();
    const key = SECRETS[0]?.[1] ?? '';
    const created = await tool.run({ command: 'create', path: '/memories/keys.md', file_text: `key: ${key}` });
    expect(created).toEqual({
      is_error: true,
      code: 'forbidden',
      content:
        'Error: Refused to write /memories/keys.md: the text looks like it contains an Anthropic API key. Do not store API keys, ' +
        'passwords, tokens or private keys in memory; write the note without the secret. Nothing was written.',
    });
    expect((await tool.run({ command: 'view', path: '/memories/keys.md' })).is_error).toBe(true);
    await tool.run({ command: 'create', path: '/memories/notes.md', file_text: 'key: TBD' });
    expect((await tool.run({ command: 'str_replace', path: '/memories/notes.md', old_str: 'TBD', new_str: key })).is_error).toBe(true);
    expect((await tool.run({ command: 'insert', path: '/memories/notes.md', insert_line: 1, insert_text: key })).is_error).toBe(true);
    expect((await tool.run({ command: 'view', path: '/memories/notes.md' })).content).toContain('key: TBD');
    await expect(tool.create({ command: 'create', path: '/memories/x', file_text: key })).rejects.toMatchObject({ code: 'forbidden' });
  });

  it('refuses an edit that completes a secret with text already in the file', async () => {
    const tool = await open();
    const head = fake('sk-ant-api03-', body(10));
    await tool.run({ command: 'create', path: '/memories/a.md', file_text: `${'intro\n'.repeat(500)}key: ${head}|end` });
    // Neither the file nor the new text holds a whole key; together they do.
    const joined = await tool.run({ command: 'str_replace', path: '/memories/a.md', old_str: '|end', new_str: body(20, undefined, 2) });
    expect(joined).toMatchObject({ is_error: true, code: 'forbidden' });
    const inserted = await tool.run({ command: 'insert', path: '/memories/a.md', insert_line: 500, insert_text: `${head}${body(20, undefined, 3)}` });
    expect(inserted).toMatchObject({ is_error: true, code: 'forbidden' });
  });

  it('checks an edit around what it changes, so a key far away in the file does not block it', async () => {
    // A file holding a key is possible: written with blockSecrets off, or imported (bundles are the user's own).
    const key = SECRETS[0]?.[1] ?? '';
    const writer = await open({ blockSecrets: false });
    const far = '.'.repeat(SECRET_CONTEXT + 10);
    await writer.run({ command: 'create', path: '/memories/a.md', file_text: `${key}\n${far}\nstatus: draft` });
    const tool = await open({ dbName: writer.dbName });
    expect((await tool.run({ command: 'str_replace', path: '/memories/a.md', old_str: 'draft', new_str: 'final' })).is_error).toBe(false);
    // Near it, the check sees the key.
    expect((await tool.run({ command: 'insert', path: '/memories/a.md', insert_line: 1, insert_text: 'x' })).is_error).toBe(true);
    // create always checks the whole text.
    expect((await tool.run({ command: 'create', path: '/memories/b.md', file_text: `${far}${key}` })).is_error).toBe(true);
  });

  it('never hands refused or unredacted text to the storage backend, even for a moment', async () => {
    const key = SECRETS[0]?.[1] ?? '';
    const spy = await spyDuring(async () => {
      const plain = await open();
      expect((await plain.run({ command: 'create', path: '/memories/k.md', file_text: `key: ${key}` })).is_error).toBe(true);
      const redacting = await open({ beforeWrite: ({ content }) => content.replaceAll('hunter2', '[redacted]') });
      await redacting.run({ command: 'create', path: '/memories/p.md', file_text: 'password hunter2' });
      expect(await redacting.read('/memories/p.md')).toBe('password [redacted]');
    });
    const sent = spy.asked.filter((one) => one.store === 'bodies' && (one.method === 'add' || one.method === 'put'));
    expect(sent.map((one) => one.value)).toEqual(['password [redacted]']);
  });

  it('does not cut a word where it starts to look around an edit', async () => {
    // In the file the key-like run is inside a longer word, so it is no key. A check starting exactly at its
    // "AKIA" would see a word boundary there that the file does not have.
    const before = `intro ${'Q'.repeat(100)}`;
    const text = `${before}${fake('AKIA', 'BCDEFGHIJKLMNOPQ')} ${'.'.repeat(SECRET_CONTEXT - 21)}MARK end`;
    expect(text.indexOf('MARK') - before.length).toBe(SECRET_CONTEXT);
    const tool = await open();
    expect((await tool.run({ command: 'create', path: '/memories/a.md', file_text: text })).is_error).toBe(false);
    expect((await tool.run({ command: 'str_replace', path: '/memories/a.md', old_str: 'MARK', new_str: 'DONE' })).is_error).toBe(false);
  });

  it('can be switched off with blockSecrets: false', async () => {
    const tool = await open({ blockSecrets: false });
    const key = SECRETS[0]?.[1] ?? '';
    expect((await tool.run({ command: 'create', path: '/memories/keys.md', file_text: key })).is_error).toBe(false);
  });
});

describe('beforeWrite', () => {
  it('sees the whole new text and can rewrite it; the reply snippet shows what was stored', async () => {
    const seen: string[] = [];
    const tool = await open({
      beforeWrite: ({ key, content, command }) => {
        seen.push(`${command} ${key}`);
        return content.replaceAll('password', '[redacted]');
      },
    });
    await tool.run({ command: 'create', path: '/memories//a.md', file_text: 'one' });
    const edited = await tool.run({ command: 'str_replace', path: '/memories/a.md', old_str: 'one', new_str: 'password is hunter2' });
    expect(edited.content).toContain('     1\t[redacted] is hunter2');
    expect(seen).toEqual(['create /memories/a.md', 'str_replace /memories/a.md']);
  });

  it('refuses a write when it throws, with its message, writing nothing', async () => {
    const tool = await open({
      beforeWrite: ({ content }) => {
        if (content.includes('forbidden')) throw new Error('this app keeps no notes about that');
        return undefined;
      },
    });
    const result = await tool.run({ command: 'create', path: '/memories/a.md', file_text: 'forbidden topic' });
    expect(result.content).toBe('Error: Refused to write /memories/a.md: this app keeps no notes about that. Nothing was written.');
    expect((await tool.run({ command: 'view', path: '/memories' })).content).not.toContain('a.md');
    expect(await tool.history()).toEqual([]);
  });
});
