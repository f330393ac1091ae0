// A refusal beside the baseline: a version the remote refused never takes the place of what both sides last agreed,
// so a delete still travels and a version back under the limit is pushed over the one last seen, with no conflict.

import { describe, expect, it } from 'vitest';
import type { IndexedDBMemoryTool } from '../../src/index.js';
import { createMemorySync } from '../../src/sync/memory-sync.js';
import type { MemorySync } from '../../src/sync/memory-sync.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { MemoryRemote } from '../helpers/memory-remote.js';
import { memoryFiles } from '../helpers/sync-storm.js';

const open = toolsClosedAfterEach('sync-baseline');

const create = (tool: IndexedDBMemoryTool, path: string, text: string) =>
  tool.create({ command: 'create', path, file_text: text });

async function twoDevices(remote: MemoryRemote): Promise<{ a: IndexedDBMemoryTool; syncA: MemorySync; b: IndexedDBMemoryTool; syncB: MemorySync }> {
  const a = await open();
  const b = await open();
  const syncA = createMemorySync(a, { remote: remote.handle(), interval: null });
  const syncB = createMemorySync(b, { remote: remote.handle(), interval: null });
  await create(a, '/memories/big.md', 'small\n');
  await syncA.syncNow();
  await syncB.syncNow();
  return { a, syncA, b, syncB };
}

describe.each([
  ['a remote with ids and hashes (like Memory Stores)', { ids: true }],
  ['a remote without them (like WebDAV)', { ids: false }],
])('after the remote refused a version, on %s', (_, options) => {
  it('carries a delete of the file to the remote and the other device, and brings nothing back', async () => {
    const remote = new MemoryRemote({ ...options, limits: { maxFileBytes: 100 } });
    const { a, syncA, b, syncB } = await twoDevices(remote);
    await create(a, '/memories/big.md', 'x'.repeat(150));
    expect((await syncA.syncNow()).skipped).toEqual([expect.objectContaining({ path: '/memories/big.md', refusedBy: 'remote' })]);
    await a.delete({ command: 'delete', path: '/memories/big.md' });
    const report = await syncA.syncNow();
    expect(report).toMatchObject({ pulled: [], deleted: ['/memories/big.md'], skipped: [] });
    expect(remote.snapshot()).toEqual({});
    expect(await memoryFiles(a)).toEqual({});
    await syncB.syncNow();
    expect(await memoryFiles(b)).toEqual({});
  });

  it('pushes a version cut back under the limit over the one last agreed, with no conflict', async () => {
    const remote = new MemoryRemote({ ...options, limits: { maxFileBytes: 100 } });
    const { a, syncA, b, syncB } = await twoDevices(remote);
    await create(a, '/memories/big.md', 'x'.repeat(150));
    await syncA.syncNow();
    // Listed on every pass while neither side changes, and not sent again.
    remote.log.length = 0;
    expect((await syncA.syncNow()).skipped).toHaveLength(1);
    expect(remote.log).toEqual(['list']);
    await create(a, '/memories/big.md', 'short again\n');
    const report = await syncA.syncNow();
    expect(report).toMatchObject({ pushed: ['/memories/big.md'], conflicts: [], skipped: [] });
    expect(remote.snapshot()).toEqual({ '/big.md': 'short again\n' });
    await syncB.syncNow();
    expect(await memoryFiles(b)).toEqual({ '/big.md': 'short again\n' });
    expect(syncA.status().conflicts).toEqual([]);
  });
});
