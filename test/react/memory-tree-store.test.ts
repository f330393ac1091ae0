// The live tree (createMemoryTreeStore) over a real tool: its own writes, another tool's on the same database (as
// another tab's), a burst of writes, a missing folder, a closed tool.

import { describe, expect, it, onTestFinished } from 'vitest';
import type { MemoryEntry } from '../../src/index.js';
import type { MemoryTreeSource, MemoryTreeStore } from '../../src/index.js';
import { createMemoryTreeStore } from '../../src/index.js';
import { freshToolEach } from '../helpers/fresh-tool.js';

const fresh = freshToolEach('react-tree');
const paths = (store: MemoryTreeStore) => store.getSnapshot().entries.map((entry) => entry.path);

/** Keeps the store subscribed for the test, as a mounted component would. */
function following(store: MemoryTreeStore): MemoryTreeStore {
  const stop = store.subscribe(() => undefined);
  onTestFinished(stop);
  return store;
}

describe('createMemoryTreeStore on a real tool', () => {
  it("lists the memory and follows this tool's writes, renames and deletes", async () => {
    await fresh.create('/memories/a.md', 'a');
    const store = following(createMemoryTreeStore(fresh.tool));
    await expect.poll(() => paths(store)).toEqual(['/memories/a.md']);
    expect(store.getSnapshot().status).toBe('ready');

    await fresh.create('/memories/notes/b.md', 'b');
    await expect.poll(() => paths(store)).toEqual(['/memories/a.md', '/memories/notes', '/memories/notes/b.md']);
    await fresh.ok({ command: 'rename', old_path: '/memories/notes', new_path: '/memories/kept' });
    await expect.poll(() => paths(store)).toEqual(['/memories/a.md', '/memories/kept', '/memories/kept/b.md']);
    await fresh.ok({ command: 'delete', path: '/memories/kept' });
    await expect.poll(() => paths(store)).toEqual(['/memories/a.md']);
  });

  it("follows another tool's writes on the same database, as another tab's", async () => {
    const store = following(createMemoryTreeStore(fresh.tool));
    await expect.poll(() => store.getSnapshot().status).toBe('ready');
    expect(paths(store)).toEqual([]);
    const other = await fresh.another();
    await other.create({ command: 'create', path: '/memories/from-elsewhere.md', file_text: 'hi' });
    await expect.poll(() => paths(store)).toEqual(['/memories/from-elsewhere.md']);
  });

  it('shows a folder going missing and coming back', async () => {
    await fresh.create('/memories/notes/a.md', 'a');
    const store = following(createMemoryTreeStore(fresh.tool, { path: '/memories/notes' }));
    await expect.poll(() => paths(store)).toEqual(['/memories/notes/a.md']);
    await fresh.ok({ command: 'delete', path: '/memories/notes' });
    await expect.poll(() => store.getSnapshot()).toEqual({ status: 'missing', entries: [], error: undefined });
    await fresh.create('/memories/notes/b.md', 'b');
    await expect.poll(() => paths(store)).toEqual(['/memories/notes/b.md']);
  });

  it('makes one more read, not a hundred, of 100 writes made while a read is out', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((done) => {
      release = done;
    });
    let lists = 0;
    let answered = 0;
    // The first read waits for the test: every write below happens while it is out.
    const source: MemoryTreeSource = {
      subscribe: (listener) => fresh.tool.subscribe(listener),
      list: async (path) => {
        if (++lists === 1) await held;
        try {
          return await fresh.tool.list(path);
        } finally {
          answered++;
        }
      },
    };
    const store = following(createMemoryTreeStore(source));
    await expect.poll(() => lists).toBe(1);
    for (let i = 0; i < 100; i++) await fresh.create(`/memories/burst/f${String(i).padStart(3, '0')}.md`, `${i}`);
    release();
    await expect.poll(() => answered).toBe(2);
    expect(lists).toBe(2);
    expect(store.getSnapshot().entries.filter((entry: MemoryEntry) => entry.kind === 'file')).toHaveLength(100);
  });

  it('shows a failure as an error with the last entries kept, e.g. once the tool is closed', async () => {
    await fresh.create('/memories/a.md', 'a');
    const store = following(createMemoryTreeStore(fresh.tool));
    await expect.poll(() => paths(store)).toEqual(['/memories/a.md']);
    fresh.tool.close();
    store.refresh();
    await expect.poll(() => store.getSnapshot().status).toBe('error');
    expect(store.getSnapshot().error).toMatchObject({ code: 'storage' });
    expect(paths(store)).toEqual(['/memories/a.md']);
  });
});
