// `tool.wipe()` under a sync mount, against a remote held in memory: by default the wipe is not pushed as deletes
// (the baselines go with the files, and a memory without a baseline only pulls), so the next pass brings the remote's
// files back; `wipe({ remote: true })` keeps the baselines, so the next pass deletes the files there too.

import { describe, expect, it } from 'vitest';
import type { IndexedDBMemoryTool } from '../../src/index.js';
import { createMemorySync } from '../../src/sync/memory-sync.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { MemoryRemote } from '../helpers/memory-remote.js';

const open = toolsClosedAfterEach('wipe-sync');

async function files(tool: IndexedDBMemoryTool): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await tool.list()) if (entry.kind === 'file') out[entry.path] = await tool.read(entry.path);
  return out;
}

async function synced() {
  const remote = new MemoryRemote();
  const tool = await open();
  const sync = createMemorySync(tool, { remote: remote.handle(), interval: null });
  await tool.write('/memories/a.md', 'alpha\n');
  await tool.write('/memories/team/b.md', 'beta\n');
  await sync.syncNow();
  expect(remote.snapshot()).toEqual({ '/a.md': 'alpha\n', '/team/b.md': 'beta\n' });
  return { remote, tool, sync };
}

describe('wipe under sync', () => {
  it('is not pushed as deletes by default: the next pass pulls the remote files back', async () => {
    const { remote, tool, sync } = await synced();
    await tool.wipe();
    expect(await files(tool)).toEqual({});
    const report = await sync.syncNow();
    expect(report.deleted).toEqual([]);
    expect(report.pulled.sort()).toEqual(['/memories/a.md', '/memories/team/b.md']);
    expect(remote.snapshot()).toEqual({ '/a.md': 'alpha\n', '/team/b.md': 'beta\n' });
    expect(await files(tool)).toEqual({ '/memories/a.md': 'alpha\n', '/memories/team/b.md': 'beta\n' });
  });

  it('with remote: true, the next pass deletes the files on the remote too', async () => {
    const { remote, tool, sync } = await synced();
    await tool.wipe({ remote: true });
    await sync.syncNow();
    expect(remote.snapshot()).toEqual({});
    expect(await files(tool)).toEqual({});
    // And it stays so: a later pass brings nothing back.
    await sync.syncNow();
    expect(await files(tool)).toEqual({});
  });
});
