// The secret check around an edit (src/guards/edit-window.ts): a value and its label may be any run of whitespace
// apart, which costs the window nothing; text that is not whitespace still bounds it.

import { describe, expect, it } from 'vitest';
import { SECRET_CONTEXT, findSecretAround } from '../../src/guards/edit-window.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { BASE64, body, fake } from './fake-secrets.js';

const open = toolsClosedAfterEach('edit-window');

const LABEL = 'aws_secret_access_key =';
const VALUE = body(40, BASE64, 7);
/** Runs of whitespace the patterns' `\s` bridges: spaces, blank lines, tabs and CRLF, no-break and ideographic spaces. */
const GAPS: Array<[string, string]> = [
  ['1,200 spaces', ' '.repeat(1200)],
  ['2,000 blank lines', '\n'.repeat(2000)],
  ['tabs and CRLFs', '\t\r\n'.repeat(700)],
  ['no-break and ideographic spaces', '\u00a0\u3000\u2003'.repeat(500)],
];

describe('findSecretAround', () => {
  it.each(GAPS)('sees a label %s before the value an edit wrote, and a value that far after the label it wrote', (_, gap) => {
    const text = `notes\n${LABEL}${gap}${VALUE}\nmore`;
    const at = text.indexOf(VALUE);
    expect(findSecretAround(text, at, at + VALUE.length)).toBe('an AWS secret access key');
    const label = text.indexOf(LABEL);
    expect(findSecretAround(text, label, label + LABEL.length)).toBe('an AWS secret access key');
  });

  it('counts what is not whitespace: a key more than the window away, past words and gaps, is not seen again', () => {
    const key = fake('ghp_', body(36));
    const words = 'word '.repeat(SECRET_CONTEXT / 4 + 1); // over SECRET_CONTEXT characters besides the spaces
    const text = `${key}${' '.repeat(5000)}${words}${' '.repeat(5000)}edited`;
    const at = text.indexOf('edited');
    expect(findSecretAround(text, at, at + 'edited'.length)).toBeUndefined();
    // Within the window, however wide its gaps, it is seen.
    const near = `${key}${' '.repeat(5000)}${'word '.repeat(20)}${'\n'.repeat(5000)}edited`;
    const there = near.indexOf('edited');
    expect(findSecretAround(near, there, there + 'edited'.length)).toBe('a GitHub token');
  });
});

describe('an edit far from its label, through the tool', () => {
  it('refuses a str_replace that puts the value 1,200 spaces after its label, and an insert of the label above it', async () => {
    const tool = await open();
    await tool.run({ command: 'create', path: '/memories/aws.md', file_text: `# creds\n${LABEL}${' '.repeat(1200)}VALUE_TBD\n` });
    const replaced = await tool.run({ command: 'str_replace', path: '/memories/aws.md', old_str: 'VALUE_TBD', new_str: VALUE });
    expect(replaced).toMatchObject({ is_error: true, code: 'forbidden' });
    expect(replaced.content).toContain('an AWS secret access key');

    await tool.run({ command: 'create', path: '/memories/b.md', file_text: `${'\n'.repeat(1500)}${VALUE}\n` });
    const inserted = await tool.run({ command: 'insert', path: '/memories/b.md', insert_line: 0, insert_text: LABEL });
    expect(inserted).toMatchObject({ is_error: true, code: 'forbidden' });
    expect(await tool.read('/memories/aws.md')).toContain('VALUE_TBD');
    expect(await tool.read('/memories/b.md')).not.toContain('aws_secret');

    // The same edits with a word that is no label there go through.
    await tool.run({ command: 'create', path: '/memories/c.md', file_text: `# creds\nsome_setting =${' '.repeat(1200)}VALUE_TBD\n` });
    expect((await tool.run({ command: 'str_replace', path: '/memories/c.md', old_str: 'VALUE_TBD', new_str: VALUE })).is_error).toBe(false);
  });
});
