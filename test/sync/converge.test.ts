// Seeded storms of edits, deletes, renames and sync points on three devices sharing a remote: after everyone syncs
// twice, all memories equal the remote and no version written is lost. The remote also holds a file that is no text
// and an entry its listing refuses, which every device leaves alone. Seeds from SYNC_SEEDS (comma-separated): a
// failing seed is replayed with `SYNC_SEEDS=<seed>`.

import { describe, expect, it } from 'vitest';
import { createMemorySync } from '../../src/sync/memory-sync.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { MemoryRemote } from '../helpers/memory-remote.js';
import { lostVersions, memoryFiles, runSyncStorm, settle } from '../helpers/sync-storm.js';
import type { StormDevice } from '../helpers/sync-storm.js';

const open = toolsClosedAfterEach('converge');
const SEEDS = (globalThis.process?.env['SYNC_SEEDS'] ?? '1,2,3,4').split(',').map(Number);

describe.each([
  ['a remote with ids and moves (like Memory Stores)', { ids: true, move: true }],
  ['a remote without ids (like WebDAV)', { ids: false, move: true }],
  ['a remote that keeps folders of its own (like WebDAV)', { ids: false, move: true, folders: true }],
  ['a remote without moves', { ids: false, move: false }],
])('three devices on %s', (_, options) => {
  it.each(SEEDS)('converge with nothing lost (seed %i)', async (seed) => {
    const remote = new MemoryRemote(options);
    const planted = await remote.plantUnreadable('/z.bin');
    remote.refusedEntries.set('/a.md.broken', 'its name maps to no path');
    const devices: StormDevice[] = [];
    for (let i = 0; i < 3; i++) {
      const tool = await open();
      devices.push({ tool, sync: createMemorySync(tool, { remote: remote.handle(), interval: null }) });
    }
    const written = await runSyncStorm(devices, seed, 120);
    await settle(devices);
    const { '/z.bin': left, ...expected } = remote.snapshot();
    expect(left).toBeDefined();
    expect(remote.files.get('/z.bin')?.version).toBe(planted.version);
    for (const { tool } of devices) expect(await memoryFiles(tool)).toEqual(expected);
    expect(await lostVersions(devices, written)).toEqual([]);
    for (const { sync } of devices) {
      expect(sync.status().skipped.map((skipped) => skipped.path).sort()).toEqual(['/memories/a.md.broken', '/memories/z.bin']);
      sync.close();
    }
  });
});
