// tool.list() and tool.read(): the app's own view of the tree, hidden names included, raw text.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IndexedDBMemoryTool } from '../../src/index.js';

let tool: IndexedDBMemoryTool;
beforeEach(async () => {
  tool = await IndexedDBMemoryTool.init({ dbName: `listing-${crypto.randomUUID()}` });
  await tool.run({ command: 'create', path: '/memories/b/.hidden.md', file_text: 'h' });
  await tool.run({ command: 'create', path: '/memories/a.md', file_text: 'line 1\nline 2\n' });
  await tool.run({ command: 'create', path: '/memories/b/c/d.md', file_text: 'é' });
});
afterEach(() => tool.close());

describe('list', () => {
  it('lists every entry below a folder, hidden ones and deep ones too, sorted by path', async () => {
    const entries = await tool.list();
    expect(entries.map(({ path, kind, size, hidden }) => [path, kind, size, hidden])).toEqual([
      ['/memories/a.md', 'file', 14, false],
      ['/memories/b', 'folder', 0, false],
      ['/memories/b/.hidden.md', 'file', 1, true],
      ['/memories/b/c', 'folder', 0, false],
      ['/memories/b/c/d.md', 'file', 2, false],
    ]);
    expect(entries[0]?.name).toBe('a.md');
    expect(entries[0]?.updatedAt).toBeInstanceOf(Date);
    expect((await tool.list('/memories/b/c/')).map((e) => e.path)).toEqual(['/memories/b/c/d.md']);
  });

  it('marks everything below a hidden folder hidden too', async () => {
    await tool.run({ command: 'create', path: '/memories/node_modules/x/y.md', file_text: 'y' });
    const hidden = (await tool.list()).filter((e) => e.path.startsWith('/memories/node_modules'));
    expect(hidden.map((e) => [e.path, e.hidden])).toEqual([
      ['/memories/node_modules', true],
      ['/memories/node_modules/x', true],
      ['/memories/node_modules/x/y.md', true],
    ]);
  });

  it('refuses a missing path, a file and a hostile path', async () => {
    await expect(tool.list('/memories/none')).rejects.toMatchObject({ code: 'not_found' });
    await expect(tool.list('/memories/../x')).rejects.toMatchObject({ code: 'invalid_path' });
  });

  it('refuses a file as not_a_folder, the code that says what the path is not', async () => {
    await expect(tool.list('/memories/a.md')).rejects.toMatchObject({ code: 'not_a_folder', message: 'The path /memories/a.md is not a folder.' });
    await expect(tool.list('/memories/b/c/d.md/')).rejects.toMatchObject({ code: 'not_a_folder', message: 'The path /memories/b/c/d.md/ is not a folder.' });
  });
});

describe('read', () => {
  it('returns the raw text, trailing newline included', async () => {
    expect(await tool.read('/memories/a.md')).toBe('line 1\nline 2\n');
    expect(await tool.read('/memories//b/c/d.md')).toBe('é');
  });

  it('refuses a folder and a missing file', async () => {
    await expect(tool.read('/memories/b')).rejects.toMatchObject({ code: 'not_a_file' });
    await expect(tool.read('/memories/x.md')).rejects.toMatchObject({ code: 'not_found' });
  });
});
