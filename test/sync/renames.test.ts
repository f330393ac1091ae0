// Renames in a pass (src/sync/renames.ts), scripted on a remote held in memory, in every engine: with ids and moves
// (like Memory Stores) and without (like WebDAV, whose listing gives neither an id nor a hash).

import { describe, expect, it } from 'vitest';
import type { IndexedDBMemoryTool } from '../../src/index.js';
import { createMemorySync } from '../../src/sync/memory-sync.js';
import type { MemorySync } from '../../src/sync/memory-sync.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { MemoryRemote } from '../helpers/memory-remote.js';
import { renamedApart } from '../helpers/sync-devices.js';

const open = toolsClosedAfterEach('sync-renames');

interface Device {
  tool: IndexedDBMemoryTool;
  sync: MemorySync;
}

async function device(remote: MemoryRemote): Promise<Device> {
  const tool = await open();
  return { tool, sync: createMemorySync(tool, { remote: remote.handle(), interval: null }) };
}

const write = (tool: IndexedDBMemoryTool, path: string, text: string) =>
  tool.create({ command: 'create', path: `/memories${path}`, file_text: text });
const rename = (tool: IndexedDBMemoryTool, from: string, to: string) =>
  tool.rename({ command: 'rename', old_path: `/memories${from}`, new_path: `/memories${to}` });

async function files(tool: IndexedDBMemoryTool): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await tool.list('/memories')) {
    if (entry.kind === 'file') out[entry.path.slice('/memories'.length)] = await tool.read(entry.path);
  }
  return out;
}

/** The two kinds of remote: like Memory Stores, and like WebDAV (whose listing gives neither an id nor a hash). */
const REMOTES = [
  { name: 'with ids and moves', ids: true },
  { name: 'without ids nor listed hashes', ids: false },
];

/** Two devices with `/x.md` synced, both renamed to `/y.md`, and A's rename carried there. */
async function renamedOnBoth(remote: MemoryRemote): Promise<[Device, Device]> {
  const [a, b] = [await device(remote), await device(remote)];
  await write(a.tool, '/x.md', 'one\n');
  await a.sync.syncNow();
  await b.sync.syncNow();
  await rename(a.tool, '/x.md', '/y.md');
  await rename(b.tool, '/x.md', '/y.md');
  await a.sync.syncNow();
  return [a, b];
}

describe.each(REMOTES)('two devices rename a file to the same name, $name', ({ ids }) => {
  it('the one that edits it before its next pass pushes the edit, with no conflict copy, and both converge on it', async () => {
    const remote = new MemoryRemote({ ids });
    const [a, b] = await renamedOnBoth(remote);
    await write(b.tool, '/y.md', 'two\n');
    const report = await b.sync.syncNow();
    expect(report).toMatchObject({ pushed: ['/memories/y.md'], pulled: [], conflicts: [] });
    expect(remote.snapshot()).toEqual({ '/y.md': 'two\n' });
    expect((await a.sync.syncNow()).conflicts).toEqual([]);
    expect(await files(a.tool)).toEqual({ '/y.md': 'two\n' });
    expect(await files(b.tool)).toEqual({ '/y.md': 'two\n' });
    // Settled: a pass more on each device carries nothing.
    for (const { sync } of [a, b]) expect(await sync.syncNow()).toMatchObject({ pushed: [], pulled: [], conflicts: [] });
  });

  it('the one that did not edit it pulls the edit the other pushed after the rename, with no conflict copy', async () => {
    const remote = new MemoryRemote({ ids });
    const [a, b] = await renamedOnBoth(remote);
    await write(a.tool, '/y.md', 'two\n');
    await a.sync.syncNow();
    expect(await b.sync.syncNow()).toMatchObject({ pushed: [], pulled: ['/memories/y.md'], conflicts: [] });
    expect(await files(b.tool)).toEqual({ '/y.md': 'two\n' });
    expect(remote.snapshot()).toEqual({ '/y.md': 'two\n' });
  });

  it('the one that renamed a stale version pulls the edit the other made first, though another file took the old name', async () => {
    const remote = new MemoryRemote({ ids });
    const [a, b] = [await device(remote), await device(remote)];
    await write(a.tool, '/x.md', 'one\n');
    await write(a.tool, '/z.md', 'zed\n');
    await a.sync.syncNow();
    await b.sync.syncNow();
    await write(a.tool, '/x.md', 'two\n');
    await a.sync.syncNow();
    await rename(a.tool, '/x.md', '/y.md');
    await a.sync.syncNow();
    await rename(b.tool, '/x.md', '/y.md');
    await rename(b.tool, '/z.md', '/x.md');
    expect((await b.sync.syncNow()).conflicts).toEqual([]);
    expect(await files(b.tool)).toEqual({ '/x.md': 'zed\n', '/y.md': 'two\n' });
    expect(remote.snapshot()).toEqual({ '/x.md': 'zed\n', '/y.md': 'two\n' });
  });

  it('edits on both sides after the rename still keep both versions, as a conflict copy', async () => {
    const remote = new MemoryRemote({ ids });
    const [a, b] = await renamedOnBoth(remote);
    await write(a.tool, '/y.md', 'two\n');
    await a.sync.syncNow();
    await write(b.tool, '/y.md', 'three\n');
    expect((await b.sync.syncNow()).conflicts).toEqual(['/memories/y.md']);
    expect(Object.values(await files(b.tool)).sort()).toEqual(['three\n', 'two\n']);
  });
});

describe.each(REMOTES)('a file renamed here and edited there, $name', ({ ids }) => {
  it('is moved there and takes the edit at its new name: no copy, nothing back at the old name', async () => {
    const remote = new MemoryRemote({ ids });
    const [a, b] = [await device(remote), await device(remote)];
    await write(a.tool, '/x.md', 'one\n');
    await a.sync.syncNow();
    await b.sync.syncNow();
    await write(a.tool, '/x.md', 'two\n');
    await a.sync.syncNow();
    await rename(b.tool, '/x.md', '/y.md');
    expect((await b.sync.syncNow()).conflicts).toEqual([]);
    expect(remote.snapshot()).toEqual({ '/y.md': 'two\n' });
    // The edit comes here on the next pass (the move's answer is not the text).
    expect(await b.sync.syncNow()).toMatchObject({ pulled: ['/memories/y.md'], pushed: [], conflicts: [] });
    expect(await files(b.tool)).toEqual({ '/y.md': 'two\n' });
    expect(await a.sync.syncNow()).toMatchObject({ conflicts: [] });
    expect(await files(a.tool)).toEqual({ '/y.md': 'two\n' });
    for (const { sync } of [a, b]) expect(await sync.syncNow()).toMatchObject({ pushed: [], pulled: [], conflicts: [] });
  });
});

describe.each(REMOTES)('two devices rename a file to two names, each then writing a new file at the other’s, $name', ({ ids }) => {
  it('keeps every text: each new file beside the renamed one, as a conflict copy, and both devices converge', async () => {
    const remote = new MemoryRemote({ ids });
    const [a, b] = [await device(remote), await device(remote)];
    // Neither /y.md there nor /z.md here is the renamed file: its text is at the other name. Borrowing its baseline
    // took each for an edit of it, and the pass pulled 'b new' over it here and pushed 'a new' over it there.
    expect((await renamedApart(a, b)).conflicts.sort()).toEqual(['/memories/y.md', '/memories/z.md']);
    await b.sync.syncNow();
    const texts = Object.values(await files(a.tool)).sort();
    expect(texts).toEqual(['a new\n', 'b new\n', 'one\n', 'one\n']);
    expect(await files(b.tool)).toEqual(await files(a.tool));
  });
});
