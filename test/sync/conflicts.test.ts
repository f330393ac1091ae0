// Conflicts that keep both versions, or neither changes: when the copy that keeps this memory's version cannot be
// written here, the version here stays at its path and the remote's waits, listed; and only copies a pair explains
// are shown as conflicts.

import { describe, expect, it } from 'vitest';
import type { IndexedDBMemoryTool } from '../../src/index.js';
import type { IndexedDBMemoryToolOptions } from '../../src/index.js';
import { createMemorySync } from '../../src/sync/memory-sync.js';
import type { MemorySync } from '../../src/sync/memory-sync.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { MemoryRemote } from '../helpers/memory-remote.js';
import { memoryFiles } from '../helpers/sync-storm.js';

const open = toolsClosedAfterEach('sync-conflicts');

const create = (tool: IndexedDBMemoryTool, path: string, text: string) =>
  tool.create({ command: 'create', path, file_text: text });

/** A device and the remote agreeing on `path`, then each changing it its own way. */
async function bothChanged(
  remote: MemoryRemote,
  path: string,
  options: IndexedDBMemoryToolOptions = {},
  before: (tool: IndexedDBMemoryTool) => Promise<unknown> = async () => undefined,
): Promise<{ tool: IndexedDBMemoryTool; sync: MemorySync }> {
  const tool = await open(options);
  const sync = createMemorySync(tool, { remote: remote.handle(), interval: null });
  await before(tool);
  await create(tool, `/memories${path}`, 'agreed\n');
  await sync.syncNow();
  await create(tool, `/memories${path}`, 'mine\n');
  await remote.put(path, 'theirs\n', remote.files.get(path)?.id);
  return { tool, sync };
}

describe.each([
  ['with ids', { ids: true }],
  ['without ids', { ids: false }],
])('a conflict whose copy cannot be written here (%s)', (_, options) => {
  it('keeps both versions of a name too long for the copy’s tag: the copy’s name is cut, and still shown as its file’s', async () => {
    const remote = new MemoryRemote(options);
    const path = `/${'n'.repeat(226)}.md`;
    const { tool, sync } = await bothChanged(remote, path);
    const report = await sync.syncNow();
    expect(report.conflicts).toEqual([`/memories${path}`]);
    expect(report.skipped).toEqual([]);
    const here = await memoryFiles(tool);
    expect(here[path]).toBe('theirs\n');
    const [copy, ...more] = Object.keys(here).filter((key) => key !== path);
    expect(more).toEqual([]);
    expect(here[copy ?? '']).toBe('mine\n');
    expect(new TextEncoder().encode(copy?.slice(1)).length).toBeLessThanOrEqual(255);
    expect(copy).toMatch(/^\/n+~[0-9a-f]{8}\.conflict-\d{8}-\d{6}-[0-9a-z]{4}\.md$/u);
    expect(sync.status().conflicts).toEqual([{ path: `/memories${path}`, copy: `/memories${copy}`, at: expect.any(Date) }]);
    expect(remote.snapshot()).toEqual(here);
    await sync.resolve(`/memories${copy}`, 'copy');
    await sync.syncNow();
    expect(await memoryFiles(tool)).toEqual({ [path]: 'mine\n' });
    expect(remote.snapshot()).toEqual({ [path]: 'mine\n' });
  });

  it('keeps the version here at its path when not even a cut copy fits the path’s length, and lists the path', async () => {
    const remote = new MemoryRemote(options);
    // Four folders of 250 bytes leave 19 bytes of the 1,024 for the name: no room for a copy's tag.
    const path = `${`/${'f'.repeat(250)}`.repeat(4)}/n.md`;
    const { tool, sync } = await bothChanged(remote, path);
    const report = await sync.syncNow();
    expect(report.conflicts).toEqual([]);
    expect(report.pulled).toEqual([]);
    expect(report.skipped).toEqual([{ path: `/memories${path}`, reason: expect.stringContaining('copy'), refusedBy: 'local' }]);
    expect(await memoryFiles(tool)).toEqual({ [path]: 'mine\n' });
    expect(remote.snapshot()).toEqual({ [path]: 'theirs\n' });
    // Nothing changes on either side until one of them does.
    expect((await sync.syncNow()).skipped).toHaveLength(1);
    expect(await memoryFiles(tool)).toEqual({ [path]: 'mine\n' });
  });

  it('keeps the version here when the memory holds its limit of files, and keeps both once there is room', async () => {
    const remote = new MemoryRemote(options);
    const { tool, sync } = await bothChanged(remote, '/a.md', { limits: { maxFiles: 2 } }, (tool) =>
      create(tool, '/memories/other.md', 'other\n'),
    );
    const report = await sync.syncNow();
    expect(report).toMatchObject({ conflicts: [], pulled: [] });
    expect(report.skipped).toEqual([{ path: '/memories/a.md', reason: expect.stringContaining('limit of 2 files'), refusedBy: 'local' }]);
    expect((await memoryFiles(tool))['/a.md']).toBe('mine\n');
    await tool.delete({ command: 'delete', path: '/memories/other.md' });
    expect((await sync.syncNow()).conflicts).toEqual(['/memories/a.md']);
    const now = await memoryFiles(tool);
    expect(now['/a.md']).toBe('theirs\n');
    expect(Object.values(now).sort()).toEqual(['mine\n', 'theirs\n']);
  });

  it('keeps the version here when the copy would pass the memory’s total bytes', async () => {
    const remote = new MemoryRemote(options);
    const { tool, sync } = await bothChanged(remote, '/a.md', { limits: { maxTotalBytes: 2_000 } }, (tool) =>
      create(tool, '/memories/filler.md', 'f'.repeat(1_990)),
    );
    const report = await sync.syncNow();
    expect(report).toMatchObject({ conflicts: [], pulled: [] });
    expect(report.skipped).toEqual([{ path: '/memories/a.md', reason: expect.stringContaining('2000 bytes'), refusedBy: 'local' }]);
    expect((await memoryFiles(tool))['/a.md']).toBe('mine\n');
  });
});

describe('the conflicts shown', () => {
  it('leave out a file the remote holds under a copy’s name with no file of the original name beside it', async () => {
    const remote = new MemoryRemote();
    await remote.put('/planted.conflict-20260101-000000-abcd.md', 'planted\n');
    await remote.put('/notes.md', 'notes\n');
    await remote.put('/notes.conflict-20260101-000000-wxyz.md', 'a pair\n');
    const tool = await open();
    const sync = createMemorySync(tool, { remote: remote.handle(), interval: null });
    await sync.syncNow();
    expect(sync.status().conflicts.map((conflict) => conflict.copy)).toEqual(['/memories/notes.conflict-20260101-000000-wxyz.md']);
  });
});
