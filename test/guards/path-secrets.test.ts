// The secret check on paths: a key as a file or folder name would be shown in every listing Claude reads, so
// `create` and `rename` refuse one, and `findPathSecret` is there for every path a bundle import brings.

import { describe, expect, it } from 'vitest';
import { findPathSecret } from '../../src/guards/path-secrets.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { body, fake } from './fake-secrets.js';

const open = toolsClosedAfterEach('path-secrets');

const GITHUB = fake('ghp_', body(36));
const AWS_ID = fake('AKIA', 'BCDEFGHIJKLMNOPQ');
const ANTHROPIC = fake('sk-ant-api03-', body(40));

/** Names that talk about keys, or hold a placeholder: no secret. */
const PLAIN_NAMES = [
  '/memories/sk-learn-notes.md',
  '/memories/aws/AKIA-prefix-explained.md',
  '/memories/tokens/ghp_-is-a-github-prefix.md',
  `/memories/setup/${fake('glpat-', 'x'.repeat(20))}.md`,
  `/memories/setup/${fake('xoxb-', 'your-token-here')}.md`,
];

describe('findPathSecret', () => {
  it('names the kind of secret a path holds, as a file or a folder name, and passes names that only talk about keys', () => {
    expect(findPathSecret(`/memories/${GITHUB}.md`)).toBe('a GitHub token');
    expect(findPathSecret(`/memories/${AWS_ID}/notes.md`)).toBe('an AWS access key id');
    expect(findPathSecret(`/memories/keys/${ANTHROPIC}`)).toBe('an Anthropic API key');
    for (const path of PLAIN_NAMES) expect(findPathSecret(path)).toBeUndefined();
  });
});

describe('a secret in a path', () => {
  it('is refused by create as a file or a folder name, writing nothing, not even the folders', async () => {
    const tool = await open();
    for (const [path, key] of [
      [`/memories/${GITHUB}.md`, GITHUB],
      [`/memories/${AWS_ID}/notes.md`, AWS_ID],
      [`/memories/a/${ANTHROPIC}/b/c.md`, ANTHROPIC],
    ] as const) {
      const result = await tool.run({ command: 'create', path, file_text: 'a plain note' });
      expect(result).toMatchObject({ is_error: true, code: 'forbidden' });
      expect(result.content).toMatch(/^Error: Refused to write a file at that path: it looks like it contains /u);
      expect(result.content).not.toContain(key);
    }
    expect(await tool.list('/memories')).toEqual([]);
    expect(await tool.history()).toEqual([]);
    // Names that only talk about keys are written.
    for (const path of PLAIN_NAMES) {
      expect((await tool.run({ command: 'create', path, file_text: 'a plain note' })).is_error).toBe(false);
    }
  });

  it('is refused by rename as a file or folder destination, leaving the source where it was', async () => {
    const tool = await open();
    await tool.run({ command: 'create', path: '/memories/notes/a.md', file_text: 'a' });
    for (const [from, to] of [
      ['/memories/notes/a.md', `/memories/notes/${GITHUB}.md`],
      ['/memories/notes', `/memories/${AWS_ID}`],
      ['/memories/notes', `/memories/deep/${ANTHROPIC}/notes`],
    ] as const) {
      const result = await tool.run({ command: 'rename', old_path: from, new_path: to });
      expect(result).toMatchObject({ is_error: true, code: 'forbidden' });
      expect(result.content).toMatch(/^Error: Refused to rename to that path: it looks like it contains /u);
    }
    expect(await tool.read('/memories/notes/a.md')).toBe('a');
    expect((await tool.list('/memories')).map((entry) => entry.path)).toEqual(['/memories/notes', '/memories/notes/a.md']);
    expect((await tool.history()).map((change) => change.command)).toEqual(['create']);
    await expect(tool.rename({ command: 'rename', old_path: '/memories/notes', new_path: `/memories/${AWS_ID}` })).rejects.toMatchObject({
      code: 'forbidden',
    });
  });

  it('may be renamed away: a file named with a key (written with the filter off) goes to a plain name, not another key', async () => {
    const writer = await open({ blockSecrets: false });
    expect((await writer.run({ command: 'create', path: `/memories/${GITHUB}.md`, file_text: 'x' })).is_error).toBe(false);
    expect((await writer.run({ command: 'rename', old_path: `/memories/${GITHUB}.md`, new_path: `/memories/${AWS_ID}.md` })).is_error).toBe(false);
    const tool = await open({ dbName: writer.dbName });
    const again = await tool.run({ command: 'rename', old_path: `/memories/${AWS_ID}.md`, new_path: `/memories/${ANTHROPIC}.md` });
    expect(again).toMatchObject({ is_error: true, code: 'forbidden' });
    const moved = await tool.run({ command: 'rename', old_path: `/memories/${AWS_ID}.md`, new_path: '/memories/token.md' });
    expect(moved.is_error).toBe(false);
    expect(await tool.read('/memories/token.md')).toBe('x');
    // Its text was no secret, so editing the file under its new name is fine too.
    expect((await tool.run({ command: 'str_replace', path: '/memories/token.md', old_str: 'x', new_str: 'y' })).is_error).toBe(false);
  });

  it('is named before a secret in the text, and no beforeWrite hook is shown the write', async () => {
    const seen: string[] = [];
    const tool = await open({ beforeWrite: ({ key }) => void seen.push(key) });
    const result = await tool.run({ command: 'create', path: `/memories/${GITHUB}.md`, file_text: `and ${AWS_ID}` });
    expect(result.content).toMatch(/^Error: Refused to write a file at that path: it looks like it contains a GitHub token\./u);
    expect(seen).toEqual([]);
  });
});
