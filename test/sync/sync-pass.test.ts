// A remote that says a file changed when its text did not: a new version on every listing and read, or a listed
// hash that is not the text's. An unchanged text only updates the baseline; it adds no history entry and no copy.

import { describe, expect, it } from 'vitest';
import type { IndexedDBMemoryTool } from '../../src/index.js';
import { createMemorySync } from '../../src/sync/memory-sync.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { MemoryRemote } from '../helpers/memory-remote.js';
import { memoryFiles } from '../helpers/sync-storm.js';

const open = toolsClosedAfterEach('sync-pass');

const create = (tool: IndexedDBMemoryTool, path: string, text: string) =>
  tool.create({ command: 'create', path, file_text: text });

describe.each([
  ['with ids and hashes', { ids: true }],
  ['without them', { ids: false }],
])('a file whose version changes on every look (%s)', (_, options) => {
  it('adds no history entry and no conflict, pass after pass', async () => {
    const remote = new MemoryRemote(options);
    await remote.put('/a.md', 'same\n');
    const tool = await open();
    const sync = createMemorySync(tool, { remote: remote.handle(), interval: null });
    await sync.syncNow();
    remote.fickle.add('/a.md');
    const entries = (await tool.history()).length;
    for (let pass = 0; pass < 3; pass++) {
      expect(await sync.syncNow()).toMatchObject({ pulled: [], pushed: [], conflicts: [] });
    }
    expect((await tool.history()).length).toBe(entries);
    // An edit here still goes there, over whatever version was last seen.
    await create(tool, '/memories/a.md', 'edited\n');
    await sync.syncNow();
    expect(remote.snapshot()).toEqual({ '/a.md': 'edited\n' });
  });
});

describe('a listed hash that is not the text’s', () => {
  it('adds no history entry and makes no conflict copy of a file edited here', async () => {
    const remote = new MemoryRemote({ ids: true });
    await remote.put('/a.md', 'same\n');
    const tool = await open();
    const sync = createMemorySync(tool, { remote: remote.handle(), interval: null });
    await sync.syncNow();
    remote.listedSha.set('/a.md', 'f'.repeat(64));
    remote.fickle.add('/a.md');
    const entries = (await tool.history()).length;
    await sync.syncNow();
    await sync.syncNow();
    expect((await tool.history()).length).toBe(entries);
    await create(tool, '/memories/a.md', 'edited\n');
    const report = await sync.syncNow();
    expect(report.conflicts).toEqual([]);
    expect(await memoryFiles(tool)).toEqual({ '/a.md': 'edited\n' });
    expect(remote.snapshot()).toEqual({ '/a.md': 'edited\n' });
  });
});
