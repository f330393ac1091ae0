// Seeded storms of edits, deletes, renames and sync points on three devices sharing a remote: after everyone syncs
// twice, all memories equal the remote and no version written is lost. Seeds from SYNC_SEEDS (comma-separated).

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
  ['a remote without moves', { ids: false, move: false }],
])('three devices on %s', (_, options) => {
  it.each(SEEDS)('converge with nothing lost (seed %i)', async (seed) => {
    const remote = new MemoryRemote(options);
    const devices: StormDevice[] = [];
    for (let i = 0; i < 3; i++) {
      const tool = await open();
      devices.push({ tool, sync: createMemorySync(tool, { remote: remote.handle(), interval: null }) });
    }
    const written = await runSyncStorm(devices, seed, 120);
    await settle(devices);
    const expected = remote.snapshot();
    for (const { tool } of devices) expect(await memoryFiles(tool)).toEqual(expected);
    expect(await lostVersions(devices, written)).toEqual([]);
    for (const { sync } of devices) sync.close();
  });
});
