// What sync leaves alone: a file there that is no text the memory can hold, and a listing entry the memory cannot
// take. Each is listed once a pass with its reason, never fails the pass, is never overwritten or deleted, and the
// rest syncs.

import { describe, expect, it } from 'vitest';
import type { IndexedDBMemoryTool } from '../../src/index.js';
import { createMemorySync } from '../../src/sync/memory-sync.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { MemoryRemote } from '../helpers/memory-remote.js';
import { memoryFiles } from '../helpers/sync-storm.js';

const open = toolsClosedAfterEach('sync-left-alone');

const create = (tool: IndexedDBMemoryTool, path: string, text: string) =>
  tool.create({ command: 'create', path, file_text: text });

describe.each([
  ['a remote with ids and hashes (like Memory Stores)', { ids: true }],
  ['a remote without them (like WebDAV)', { ids: false }],
])('on %s', (_, options) => {
  it('lists a file there that is no text once with its reason, and syncs the rest', async () => {
    const remote = new MemoryRemote(options);
    await remote.plantUnreadable('/.DS_Store');
    await remote.put('/a.md', 'a\n');
    const tool = await open();
    const sync = createMemorySync(tool, { remote: remote.handle(), interval: null });
    await create(tool, '/memories/mine.md', 'mine\n');
    const report = await sync.syncNow();
    expect(report.skipped).toEqual([{ path: '/memories/.DS_Store', reason: expect.stringContaining('UTF-8'), refusedBy: 'local', kind: 'unreadable' }]);
    expect(report.pulled).toEqual(['/memories/a.md']);
    expect(report.pushed).toEqual(['/memories/mine.md']);
    expect(await memoryFiles(tool)).toEqual({ '/a.md': 'a\n', '/mine.md': 'mine\n' });
    // Remembered until its version changes: listed again, not read again.
    remote.log.length = 0;
    expect((await sync.syncNow()).skipped).toEqual([expect.objectContaining({ path: '/memories/.DS_Store', kind: 'unreadable' })]);
    expect(remote.log).toEqual(['list']);
    // Once it is text, it comes.
    await remote.put('/.DS_Store', 'text now\n');
    expect((await sync.syncNow()).pulled).toEqual(['/memories/.DS_Store']);
  });

  it('never pushes a file here over one there it could not read, nor deletes that one', async () => {
    const remote = new MemoryRemote(options);
    const tool = await open();
    const sync = createMemorySync(tool, { remote: remote.handle(), interval: null });
    await create(tool, '/memories/img.png', 'synced\n');
    await sync.syncNow();
    await remote.plantUnreadable('/img.png');
    const planted = remote.files.get('/img.png');
    expect((await sync.syncNow()).skipped).toEqual([expect.objectContaining({ path: '/memories/img.png', refusedBy: 'local' })]);
    await create(tool, '/memories/img.png', 'edited here\n');
    expect((await sync.syncNow()).skipped).toHaveLength(1);
    await tool.delete({ command: 'delete', path: '/memories/img.png' });
    expect((await sync.syncNow()).skipped).toHaveLength(1);
    expect(remote.files.get('/img.png')).toBe(planted);
    expect(remote.count('write') + remote.count('delete') + remote.count('move')).toBe(1);
  });

  it('lists an entry the listing refuses, reads nothing of it, and pushes no file here over it', async () => {
    const remote = new MemoryRemote(options);
    remote.refusedEntries.set('/odd.md', 'its name is not UTF-8');
    await remote.put('/b.md', 'b\n');
    const tool = await open();
    const sync = createMemorySync(tool, { remote: remote.handle(), interval: null });
    await create(tool, '/memories/odd.md', 'here\n');
    const report = await sync.syncNow();
    expect(report.skipped).toEqual([{ path: '/memories/odd.md', reason: 'its name is not UTF-8', refusedBy: 'local' }]);
    expect(report.pulled).toEqual(['/memories/b.md']);
    // One read, of /b.md; nothing written.
    expect(remote.log.filter((call) => call !== 'list')).toEqual(['read']);
    expect((await sync.syncNow()).skipped).toHaveLength(1);
  });
});

describe('a batch read that fails for one file that is no text', () => {
  it('reads the others one by one, brings them, and lists that one', async () => {
    const remote = new MemoryRemote({ readMany: true });
    for (let i = 0; i < 24; i++) await remote.put(`/n${i}.md`, `note ${i}\n`);
    await remote.plantUnreadable('/photo.jpg');
    const tool = await open();
    const sync = createMemorySync(tool, { remote: remote.handle(), interval: null });
    const report = await sync.syncNow();
    expect(report.pulled).toHaveLength(24);
    expect(report.skipped).toEqual([expect.objectContaining({ path: '/memories/photo.jpg', refusedBy: 'local' })]);
    expect(remote.count('readMany')).toBe(1);
  });
});

describe('a file listed as larger than this memory takes', () => {
  it('is listed with the reason and never read, and the rest syncs', async () => {
    const remote = new MemoryRemote();
    await remote.put('/huge.md', 'x'.repeat(5_000));
    await remote.put('/small.md', 'small\n');
    const tool = await open({ limits: { maxFileBytes: 1_000 } });
    const sync = createMemorySync(tool, { remote: remote.handle(), interval: null });
    await create(tool, '/memories/huge.md', 'mine\n');
    const report = await sync.syncNow();
    expect(report.skipped).toEqual([
      { path: '/memories/huge.md', reason: expect.stringContaining("over this memory's limit of 1000"), refusedBy: 'local' },
    ]);
    expect(report.pulled).toEqual(['/memories/small.md']);
    expect(remote.count('read')).toBe(1);
    expect(remote.count('write')).toBe(0);
    expect(await memoryFiles(tool)).toEqual({ '/huge.md': 'mine\n', '/small.md': 'small\n' });
  });
});
