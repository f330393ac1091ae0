// Empty folders and file/folder clashes: an empty folder here never pushes a file of its name aside, and a folder
// the remote keeps (WebDAV) that was emptied on both sides is removed, so a file of its name can take the path.

import { describe, expect, it } from 'vitest';
import type { IndexedDBMemoryTool } from '../../src/index.js';
import { createMemorySync } from '../../src/sync/memory-sync.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { MemoryRemote } from '../helpers/memory-remote.js';
import { memoryFiles } from '../helpers/sync-storm.js';

const open = toolsClosedAfterEach('sync-empty-folders');

const create = (tool: IndexedDBMemoryTool, path: string, text: string) =>
  tool.create({ command: 'create', path, file_text: text });

/** A tool holding the empty folder `/memories/notes` (a file made in it, then deleted). */
async function withEmptyFolder(): Promise<IndexedDBMemoryTool> {
  const tool = await open();
  await create(tool, '/memories/notes/gone.md', 'gone');
  await tool.delete({ command: 'delete', path: '/memories/notes/gone.md' });
  expect((await tool.list('/memories')).map((entry) => entry.path)).toContain('/memories/notes');
  return tool;
}

describe('an empty folder here', () => {
  it.each([
    ['with ids', { ids: true }],
    ['without ids', { ids: false }],
  ])('gives its name to a file another device makes there, version after version (%s)', async (_, options) => {
    const remote = new MemoryRemote(options);
    const tool = await withEmptyFolder();
    const sync = createMemorySync(tool, { remote: remote.handle(), interval: null });
    await remote.put('/notes', 'one\n');
    const first = await sync.syncNow();
    expect(first).toMatchObject({ pulled: ['/memories/notes'], conflicts: [] });
    await remote.put('/notes', 'two\n', remote.files.get('/notes')?.id);
    expect(await sync.syncNow()).toMatchObject({ pulled: ['/memories/notes'], conflicts: [] });
    expect(await memoryFiles(tool)).toEqual({ '/notes': 'two\n' });
    expect(remote.snapshot()).toEqual({ '/notes': 'two\n' });
    expect(sync.status().conflicts).toEqual([]);
  });

  it('holding only empty folders gives its name too, and an undo brings them all back', async () => {
    const remote = new MemoryRemote({ folders: true });
    const tool = await open();
    await create(tool, '/memories/notes/deep/deeper/gone.md', 'gone');
    await tool.delete({ command: 'delete', path: '/memories/notes/deep/deeper/gone.md' });
    const sync = createMemorySync(tool, { remote: remote.handle(), interval: null });
    await remote.put('/notes', 'one\n');
    // Before: the pull was dropped as a change here on every pass, and the device never held the file.
    expect(await sync.syncNow()).toMatchObject({ pulled: ['/memories/notes'], conflicts: [], skipped: [] });
    expect(await memoryFiles(tool)).toEqual({ '/notes': 'one\n' });
    expect((await tool.list('/memories')).map((entry) => entry.path)).toEqual(['/memories/notes']);
    const [change] = await tool.history();
    await tool.undo(change?.id);
    expect((await tool.list('/memories')).map((entry) => [entry.path, entry.kind])).toEqual([
      ['/memories/notes', 'folder'],
      ['/memories/notes/deep', 'folder'],
      ['/memories/notes/deep/deeper', 'folder'],
    ]);
  });

  it('comes back with an undo of the pull that took its place', async () => {
    const remote = new MemoryRemote();
    const tool = await withEmptyFolder();
    const sync = createMemorySync(tool, { remote: remote.handle(), interval: null });
    await remote.put('/notes', 'one\n');
    await sync.syncNow();
    expect(await memoryFiles(tool)).toEqual({ '/notes': 'one\n' });
    const [change] = await tool.history();
    await tool.undo(change?.id);
    expect((await tool.list('/memories')).map((entry) => [entry.path, entry.kind])).toEqual([['/memories/notes', 'folder']]);
  });

  it('that another mount owns keeps its name: a file of that name stays off', async () => {
    const outer = new MemoryRemote();
    const inner = new MemoryRemote();
    const tool = await withEmptyFolder();
    const sync = createMemorySync(tool, { remote: outer.handle('memory-remote:outer'), interval: null });
    const team = createMemorySync(tool, { remote: inner.handle('memory-remote:inner'), mount: '/memories/notes', interval: null });
    await outer.put('/notes', 'a file of the mount’s name\n');
    await sync.syncNow();
    await team.syncNow();
    expect((await tool.list('/memories')).map((entry) => [entry.path, entry.kind])).toEqual([['/memories/notes', 'folder']]);
    team.close();
    sync.close();
  });
});

describe('a folder the remote keeps (like WebDAV)', () => {
  it('is removed in the pass whose delete empties it, so a file of its name is pushed in that pass, not put aside', async () => {
    const remote = new MemoryRemote({ ids: false, folders: true });
    const tool = await open();
    const sync = createMemorySync(tool, { remote: remote.handle(), interval: null });
    await create(tool, '/memories/notes/a.md', 'a');
    await sync.syncNow();
    await tool.delete({ command: 'delete', path: '/memories/notes' });
    await create(tool, '/memories/notes', 'a file now\n');
    expect(await sync.syncNow()).toMatchObject({ deleted: ['/memories/notes/a.md'], pushed: ['/memories/notes'], conflicts: [], skipped: [] });
    expect(remote.snapshot()).toEqual({ '/notes': 'a file now\n' });
    expect([...remote.folders]).toEqual([]);
    expect(await sync.syncNow()).toMatchObject({ pulled: [], pushed: [], deleted: [], conflicts: [], skipped: [] });
    expect(await memoryFiles(tool)).toEqual({ '/notes': 'a file now\n' });
  });

  it('emptied with a folder inside it goes after that one, in the same pass', async () => {
    const remote = new MemoryRemote({ ids: false, folders: true });
    const tool = await open();
    const sync = createMemorySync(tool, { remote: remote.handle(), interval: null });
    await create(tool, '/memories/p/q/r.md', 'one\n');
    await sync.syncNow();
    await tool.delete({ command: 'delete', path: '/memories/p' });
    await create(tool, '/memories/p', 'a file now\n');
    expect(await sync.syncNow()).toMatchObject({ deleted: ['/memories/p/q/r.md'], pushed: ['/memories/p'], conflicts: [], skipped: [] });
    expect(remote.snapshot()).toEqual({ '/p': 'a file now\n' });
    expect([...remote.folders]).toEqual([]);
  });

  it('emptied by a rename here is removed in that pass too, so a file of its name is pushed', async () => {
    const remote = new MemoryRemote({ ids: false, folders: true });
    const tool = await open();
    const sync = createMemorySync(tool, { remote: remote.handle(), interval: null });
    await create(tool, '/memories/p/q/r.md', 'one\n');
    await sync.syncNow();
    await tool.rename({ command: 'rename', old_path: '/memories/p/q/r.md', new_path: '/memories/s.md' });
    await tool.delete({ command: 'delete', path: '/memories/p/q' });
    await create(tool, '/memories/p/q', 'a file now\n');
    expect(await sync.syncNow()).toMatchObject({ pushed: ['/memories/s.md', '/memories/p/q'], conflicts: [], skipped: [] });
    expect(remote.snapshot()).toEqual({ '/p/q': 'a file now\n', '/s.md': 'one\n' });
  });

  it('emptied where nothing of its name is pushed waits for the next listing', async () => {
    const remote = new MemoryRemote({ ids: false, folders: true });
    const tool = await open();
    const sync = createMemorySync(tool, { remote: remote.handle(), interval: null });
    await create(tool, '/memories/notes/a.md', 'a');
    await sync.syncNow();
    await tool.delete({ command: 'delete', path: '/memories/notes/a.md' });
    expect(await sync.syncNow()).toMatchObject({ deleted: ['/memories/notes/a.md'] });
    expect(remote.count('removeEmptyFolder')).toBe(0);
    await sync.syncNow();
    expect([...remote.folders]).toEqual([]);
  });

  it('is kept while a file here lies below it, and while it holds something there', async () => {
    const remote = new MemoryRemote({ ids: false, folders: true });
    await remote.put('/full/deep/x.md', 'x');
    remote.files.delete('/full/deep/x.md');
    await remote.put('/kept/y.md', 'y');
    remote.files.delete('/kept/y.md');
    const tool = await open();
    const sync = createMemorySync(tool, { remote: remote.handle(), interval: null });
    await create(tool, '/memories/kept/new.md', 'new');
    await sync.syncNow();
    // `/full` holds `/full/deep`, which goes this pass; `/kept` now holds the new file.
    expect([...remote.folders].sort()).toEqual(['/full', '/kept']);
    await sync.syncNow();
    expect([...remote.folders].sort()).toEqual(['/kept']);
    expect(remote.snapshot()).toEqual({ '/kept/new.md': 'new' });
  });
});
