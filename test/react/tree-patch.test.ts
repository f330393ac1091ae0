// The live tree's partial reads (src/react/tree-patch.ts through createMemoryTreeStore) against a stand-in whose reads
// the test answers by hand: which paths are read again for which changes, when the folder is listed whole instead.

import { describe, expect, it } from 'vitest';
import { MemoryToolError } from '../../src/index.js';
import type { MemoryChange, MemoryEntry, MemoryTreeSnapshot, MemoryTreeStore } from '../../src/index.js';
import { createMemoryTreeStore } from '../../src/index.js';
import { pathsToRead } from '../../src/react/tree-patch.js';
import { FakeEntryMemory, fileEntry, nextTask } from './fake-memory.js';

const write = (path: string): MemoryChange => ({ type: 'write', path });
const remove = (path: string): MemoryChange => ({ type: 'delete', path });
const paths = (snapshot: MemoryTreeSnapshot) => snapshot.entries.map((entry) => entry.path);
const folderEntry = (path: string): MemoryEntry => ({ ...fileEntry(path, 0), kind: 'folder' });

/** A store over a fresh stand-in, subscribed, its first (whole) read answered with `shown`. */
async function shownTree(shown: MemoryEntry[], path?: string): Promise<{ fake: FakeEntryMemory; store: MemoryTreeStore }> {
  const fake = new FakeEntryMemory();
  const store = createMemoryTreeStore(fake, path === undefined ? {} : { path });
  store.subscribe(() => undefined);
  await expect.poll(() => fake.lists.length).toBe(1);
  fake.lists[0]?.resolve(shown);
  await expect.poll(() => store.getSnapshot().status).toBe('ready');
  return { fake, store };
}

const notFound = () => new MemoryToolError('not_found', 'gone');

describe('the live tree reads only what changed', () => {
  it('reads the one entry a write touched and puts it in place, in list order, without listing the folder', async () => {
    const { fake, store } = await shownTree([fileEntry('/memories/a.md'), fileEntry('/memories/c.md')]);
    fake.emit(write('/memories/b.md'));
    await expect.poll(() => fake.stats.length).toBe(1);
    expect(fake.stats[0]?.path).toBe('/memories/b.md');
    fake.stats[0]?.resolve(fileEntry('/memories/b.md', 7));
    await expect.poll(() => paths(store.getSnapshot())).toEqual(['/memories/a.md', '/memories/b.md', '/memories/c.md']);
    expect(store.getSnapshot().entries[1]?.size).toBe(7);
    expect(fake.lists).toHaveLength(1);
  });

  it('reads a path once for a burst of 100 changes to it, and each of a few paths once', async () => {
    const { fake } = await shownTree([fileEntry('/memories/a.md')]);
    for (let i = 0; i < 100; i++) fake.emit(write('/memories/a.md'));
    fake.emit(write('/memories/b.md'), write('/memories/c.md'), write('/memories/b.md'));
    await expect.poll(() => fake.stats.length).toBe(3);
    await nextTask();
    expect(fake.stats.map((held) => held.path)).toEqual(['/memories/a.md', '/memories/b.md', '/memories/c.md']);
    expect(fake.lists).toHaveLength(1);
  });

  it('drops a deleted entry and all below it when its read finds nothing', async () => {
    const shown = [folderEntry('/memories/notes'), fileEntry('/memories/notes/a.md'), fileEntry('/memories/z.md')];
    const { fake, store } = await shownTree(shown);
    fake.emit(remove('/memories/notes'));
    await expect.poll(() => fake.stats.length).toBe(1);
    fake.stats[0]?.reject(notFound());
    await expect.poll(() => paths(store.getSnapshot())).toEqual(['/memories/z.md']);
    expect(store.getSnapshot().status).toBe('ready');
  });

  it('reads a new folder (a write makes the folders above its file) with what it holds, not the file alone', async () => {
    const { fake, store } = await shownTree([fileEntry('/memories/a.md')]);
    fake.emit(write('/memories/new/deep/f.md'));
    await expect.poll(() => fake.stats.length).toBe(1);
    expect(fake.stats[0]?.path).toBe('/memories/new');
    fake.stats[0]?.resolve(folderEntry('/memories/new'));
    await expect.poll(() => fake.lists.length).toBe(2);
    expect(fake.lists[1]?.path).toBe('/memories/new');
    fake.lists[1]?.resolve([folderEntry('/memories/new/deep'), fileEntry('/memories/new/deep/f.md')]);
    await expect
      .poll(() => paths(store.getSnapshot()))
      .toEqual(['/memories/a.md', '/memories/new', '/memories/new/deep', '/memories/new/deep/f.md']);
  });

  it('says hidden as list() of the folder shown does, not as the whole memory would', async () => {
    const { fake, store } = await shownTree([], '/memories/.cache');
    fake.emit(write('/memories/.cache/a.md'), write('/memories/.cache/.b.md'));
    await expect.poll(() => fake.stats.length).toBe(2);
    fake.stats[0]?.resolve({ ...fileEntry('/memories/.cache/.b.md'), hidden: true });
    fake.stats[1]?.resolve({ ...fileEntry('/memories/.cache/a.md'), hidden: true });
    await expect.poll(() => store.getSnapshot().entries.map((entry) => [entry.path, entry.hidden])).toEqual([
      ['/memories/.cache/.b.md', true],
      ['/memories/.cache/a.md', false],
    ]);
  });
});

describe('the live tree lists its folder whole again', () => {
  it('for an event that does not say what it changed (another tab without details)', async () => {
    const { fake, store } = await shownTree([fileEntry('/memories/a.md')]);
    fake.emit();
    await expect.poll(() => fake.lists.length).toBe(2);
    fake.lists[1]?.resolve([fileEntry('/memories/b.md')]);
    await expect.poll(() => paths(store.getSnapshot())).toEqual(['/memories/b.md']);
    expect(fake.stats).toHaveLength(0);
  });

  it('for a change to the folder itself or one above it', async () => {
    const { fake, store } = await shownTree([fileEntry('/memories/notes/a.md')], '/memories/notes');
    fake.emit(remove('/memories/notes'));
    await expect.poll(() => fake.lists.length).toBe(2);
    fake.lists[1]?.reject(notFound());
    await expect.poll(() => store.getSnapshot().status).toBe('missing');
    expect(fake.stats).toHaveLength(0);
  });

  it('for more changed paths than one read per path is worth', async () => {
    const { fake } = await shownTree([]);
    fake.emit(...Array.from({ length: 51 }, (_, i) => write(`/memories/f${i}.md`)));
    await expect.poll(() => fake.lists.length).toBe(2);
    expect(fake.stats).toHaveLength(0);
  });

  it('on refresh(): once more after a read under way, and at once (twice in a task is one read) with no change heard', async () => {
    const { fake, store } = await shownTree([fileEntry('/memories/a.md')]);
    fake.emit(write('/memories/a.md'));
    await expect.poll(() => fake.stats.length).toBe(1);
    store.refresh();
    fake.stats[0]?.resolve(fileEntry('/memories/a.md'));
    await expect.poll(() => fake.lists.length).toBe(2);
    fake.lists[1]?.resolve([]);
    await expect.poll(() => paths(store.getSnapshot())).toEqual([]);

    store.refresh();
    store.refresh();
    await expect.poll(() => fake.lists.length).toBe(3);
    await nextTask();
    expect(fake.lists).toHaveLength(3);
    expect(fake.stats).toHaveLength(1);
  });

  it('after a failed partial read: the error keeps the entries, and the next change lists whole', async () => {
    const { fake, store } = await shownTree([fileEntry('/memories/a.md')]);
    fake.emit(write('/memories/b.md'));
    await expect.poll(() => fake.stats.length).toBe(1);
    fake.stats[0]?.reject(new MemoryToolError('storage', 'disk'));
    await expect.poll(() => store.getSnapshot().status).toBe('error');
    expect(paths(store.getSnapshot())).toEqual(['/memories/a.md']);
    fake.emit(write('/memories/c.md'));
    await expect.poll(() => fake.lists.length).toBe(2);
    expect(fake.stats).toHaveLength(1);
  });

  it('keeps the snapshot object when a whole listing finds what is shown, so nothing re-renders', async () => {
    const { fake, store } = await shownTree([fileEntry('/memories/a.md')]);
    const before = store.getSnapshot();
    let renders = 0;
    store.subscribe(() => renders++);
    store.refresh();
    await expect.poll(() => fake.lists.length).toBe(2);
    fake.lists[1]?.resolve([fileEntry('/memories/a.md')]);
    await nextTask();
    await nextTask();
    expect(store.getSnapshot()).toBe(before);
    expect(renders).toBe(0);
  });

  it('for a source without stat: every change lists whole, as before', async () => {
    const fake = new FakeEntryMemory();
    const store = createMemoryTreeStore({ subscribe: (l) => fake.subscribe(l), list: (p) => fake.list(p) });
    store.subscribe(() => undefined);
    await expect.poll(() => fake.lists.length).toBe(1);
    fake.lists[0]?.resolve([]);
    await expect.poll(() => store.getSnapshot().status).toBe('ready');
    fake.emit(write('/memories/a.md'));
    await expect.poll(() => fake.lists.length).toBe(2);
  });
});

describe('pathsToRead', () => {
  it('reads each path once, none below another, and the outermost folder not shown in place of what it holds', () => {
    const shown = new Set(['/memories/a', '/memories/a/b']);
    expect(pathsToRead('/memories', ['/memories/a/b/c.md', '/memories/a/b/c.md', '/memories/x/y/z.md'], shown)).toEqual([
      '/memories/a/b/c.md',
      '/memories/x',
    ]);
    expect(pathsToRead('/memories', ['/memories/a/b/c.md', '/memories/a/b'], shown)).toEqual(['/memories/a/b']);
    expect(pathsToRead('/memories/a', ['/memories/a/b/c.md'], new Set())).toEqual(['/memories/a/b']);
  });
});
