// The live file (createMemoryFileStore) over a real tool: its text, kept current through edits here and in another
// tool on the same database, missing once deleted or renamed away (also with a folder above), back when recreated.

import { describe, expect, it, onTestFinished } from 'vitest';
import type { MemoryFileSource, MemoryFileStore } from '../../src/index.js';
import { createMemoryFileStore } from '../../src/index.js';
import { freshToolEach } from '../helpers/fresh-tool.js';

const fresh = freshToolEach('react-file');
const MISSING = { status: 'missing', text: undefined, error: undefined };

function following(store: MemoryFileStore): MemoryFileStore {
  const stop = store.subscribe(() => undefined);
  onTestFinished(stop);
  return store;
}

describe('createMemoryFileStore on a real tool', () => {
  it("reads the file's raw text and follows its edits, here and from another tool on the database", async () => {
    await fresh.create('/memories/notes/todo.md', '- one\n');
    const store = following(createMemoryFileStore(fresh.tool, '/memories/notes/todo.md'));
    await expect.poll(() => store.getSnapshot()).toEqual({ status: 'ready', text: '- one\n', error: undefined });

    await fresh.ok({ command: 'insert', path: '/memories/notes/todo.md', insert_line: 1, insert_text: '- two\n' });
    await expect.poll(() => store.getSnapshot().text).toBe('- one\n- two\n');
    const other = await fresh.another();
    await other.str_replace({ command: 'str_replace', path: '/memories/notes/todo.md', old_str: 'one', new_str: 'uno' });
    await expect.poll(() => store.getSnapshot().text).toBe('- uno\n- two\n');
  });

  it('answers missing once the file is deleted, renamed away or its folder deleted, and ready when it is back', async () => {
    const store = following(createMemoryFileStore(fresh.tool, '/memories/notes/a.md'));
    await expect.poll(() => store.getSnapshot()).toEqual(MISSING);
    await fresh.create('/memories/notes/a.md', 'a');
    await expect.poll(() => store.getSnapshot().text).toBe('a');
    await fresh.ok({ command: 'rename', old_path: '/memories/notes/a.md', new_path: '/memories/notes/b.md' });
    await expect.poll(() => store.getSnapshot()).toEqual(MISSING);
    await fresh.ok({ command: 'rename', old_path: '/memories/notes/b.md', new_path: '/memories/notes/a.md' });
    await expect.poll(() => store.getSnapshot().text).toBe('a');
    await fresh.ok({ command: 'delete', path: '/memories/notes' });
    await expect.poll(() => store.getSnapshot()).toEqual(MISSING);
  });

  it('reads again only for changes that reach the file', async () => {
    await fresh.create('/memories/a.md', 'a');
    let reads = 0;
    const source: MemoryFileSource = {
      subscribe: (listener) => fresh.tool.subscribe(listener),
      read: async (path) => {
        try {
          return await fresh.tool.read(path);
        } finally {
          reads++;
        }
      },
    };
    const store = following(createMemoryFileStore(source, '/memories/a.md'));
    await expect.poll(() => store.getSnapshot().text).toBe('a');
    await fresh.create('/memories/other.md', 'other');
    await fresh.create('/memories/a.md', 'a 2');
    await expect.poll(() => store.getSnapshot().text).toBe('a 2');
    expect(reads).toBe(2);
  });

  it('shows a folder at the path, or a refused path, as an error', async () => {
    await fresh.create('/memories/notes/a.md', 'a');
    const folder = following(createMemoryFileStore(fresh.tool, '/memories/notes'));
    const refused = following(createMemoryFileStore(fresh.tool, '/memories/../etc/passwd'));
    await expect.poll(() => folder.getSnapshot().status).toBe('error');
    expect(folder.getSnapshot().error).toMatchObject({ code: 'not_a_file' });
    await expect.poll(() => refused.getSnapshot().status).toBe('error');
    expect(refused.getSnapshot().error).toMatchObject({ code: 'invalid_path' });
  });
});
