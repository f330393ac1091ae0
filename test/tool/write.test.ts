// `tool.write(path, text)`, the app's own write: it makes or overwrites a file as the app (actor `user` unless told),
// with every check `create` makes, and refuses as `read()` does, with a MemoryToolError. The six handlers stay Claude's.

import { describe, expect, it } from 'vitest';
import { isMemoryToolError } from '../../src/index.js';
import { body, fake } from '../guards/fake-secrets.js';
import { freshToolEach } from '../helpers/fresh-tool.js';
import { expectCode } from '../helpers/tool-calls.js';

const fresh = freshToolEach('write');

describe('write', () => {
  it('makes a file and its folders, journaled as the user', async () => {
    const { tool } = fresh;
    await tool.write('/memories/notes/today.md', 'tea at four');
    expect(await tool.read('/memories/notes/today.md')).toBe('tea at four');
    const [latest] = await tool.history({ limit: 1 });
    expect(latest).toMatchObject({ actor: 'user', command: 'create', paths: ['/memories/notes/today.md'] });
  });

  it('overwrites a file, also on a tool made with overwrite: false, as one undoable change', async () => {
    const strict = await fresh.another({ overwrite: false });
    await strict.write('/memories/a.md', 'old');
    await strict.write('/memories/a.md', 'new');
    expect(await strict.read('/memories/a.md')).toBe('new');
    await strict.undo();
    expect(await strict.read('/memories/a.md')).toBe('old');
  });

  it('records the actor and source it is given', async () => {
    const { tool } = fresh;
    await tool.write('/memories/a.md', 'x', { actor: 'settings-page', source: 'form-7' });
    expect((await tool.history({ limit: 1 }))[0]).toMatchObject({ actor: 'settings-page', source: 'form-7' });
  });

  it('leaves the six handlers journaled as Claude', async () => {
    const { tool } = fresh;
    await tool.create({ command: 'create', path: '/memories/a.md', file_text: 'x' });
    expect((await tool.history({ limit: 1 }))[0]?.actor).toBe('claude');
  });

  it('refuses what create refuses, with a MemoryToolError and its code, writing nothing', async () => {
    const tool = await fresh.another({ limits: { maxFileBytes: 10 } });
    await expectCode(tool.write('/memories/big.md', 'x'.repeat(11)), 'too_large');
    await expectCode(tool.write('/elsewhere/a.md', 'x'), 'invalid_path');
    await expectCode(tool.write('/memories/key.md', fake('sk-ant-api03-', body(40))), 'forbidden');
    await tool.write('/memories/file', 'x');
    await expectCode(tool.write('/memories/file/below.md', 'x'), 'not_a_file');
    expect((await tool.list()).map((entry) => entry.path)).toEqual(['/memories/file']);
  });

  it('refuses a text that is not a string as invalid input, as read refuses a missing file', async () => {
    const { tool } = fresh;
    await expectCode(tool.write('/memories/a.md', 42 as unknown as string), 'invalid_input');
    await expectCode(tool.read('/memories/a.md'), 'not_found');
  });

  it('writes nothing once its signal is aborted, rejecting with an AbortError', async () => {
    const { tool } = fresh;
    const error = await tool.write('/memories/a.md', 'x', { signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect((error as Error).name).toBe('AbortError');
    expect(isMemoryToolError(error)).toBe(false);
    expect(await tool.list()).toEqual([]);
  });

  it('refuses an unknown option naming the nearest known one', async () => {
    const { tool } = fresh;
    const options = { actr: 'me' } as unknown as { actor: string };
    await expect(tool.write('/memories/a.md', 'x', options)).rejects.toThrow(
      new TypeError('Unknown option `actr`; did you mean `actor`?'),
    );
  });

});
