// The shortest steps of the bugs the real-remote storm (storm-real-remotes.node.test.ts) found that issue 32 does not
// list, on both real remotes. Each is `it.fails` while the bug is open: once fixed it fails here, and becomes `it`
// (and its entry leaves KNOWN_ISSUES in the storm).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexedDBMemoryTool } from '../../src/index.js';
import { createMemorySync } from '../../src/sync/memory-sync.js';
import type { MemorySync } from '../../src/sync/memory-sync.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { memoryStoresStormRemote, webdavStormRemote } from '../helpers/storm-remotes.js';
import { renamedApart } from '../helpers/sync-devices.js';
import type { StormRemote } from '../helpers/storm-remotes.js';
import { startApacheWebdav } from '../servers/apache-webdav.js';
import type { ApacheWebdav } from '../servers/apache-webdav.js';
import { startMemoryStoresServer } from '../servers/memory-stores-server.js';
import type { MemoryStoresServer } from '../servers/memory-stores-server.js';

const open = toolsClosedAfterEach('storm-found');
let stores: MemoryStoresServer;
let dav: ApacheWebdav;

beforeAll(async () => {
  [stores, dav] = await Promise.all([startMemoryStoresServer(), startApacheWebdav()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([stores?.close(), dav?.stop()]);
});

const REMOTES: { name: string; fresh: () => Promise<StormRemote> }[] = [
  { name: 'Memory Stores', fresh: async () => memoryStoresStormRemote(stores) },
  { name: 'WebDAV', fresh: () => webdavStormRemote(dav, 100 * 1024) },
];

interface Device {
  tool: IndexedDBMemoryTool;
  sync: MemorySync;
}

async function device(remote: StormRemote): Promise<Device> {
  const tool = await open();
  return { tool, sync: createMemorySync(tool, { remote: remote.handle(1), interval: null }) };
}

const write = (tool: IndexedDBMemoryTool, path: string, text: string) =>
  tool.create({ command: 'create', path: `/memories${path}`, file_text: text });
const rename = (tool: IndexedDBMemoryTool, from: string, to: string) =>
  tool.rename({ command: 'rename', old_path: `/memories${from}`, new_path: `/memories${to}` });

describe.each(REMOTES)('$name', ({ fresh }) => {
  it('two devices rename a file to the same name, one edits it: its edit is pushed, with no conflict copy', async () => {
    const remote = await fresh();
    const [a, b] = [await device(remote), await device(remote)];
    await write(a.tool, '/x.md', 'one\n');
    await a.sync.syncNow();
    await b.sync.syncNow();
    await rename(a.tool, '/x.md', '/y.md');
    await rename(b.tool, '/x.md', '/y.md');
    await a.sync.syncNow();
    await write(b.tool, '/y.md', 'two\n');
    expect((await b.sync.syncNow()).conflicts).toEqual([]);
    expect((await remote.files()).texts).toEqual(new Map([['/y.md', 'two\n']]));
  }, 30_000);

  it('two devices rename a file to two names, each writes a file at the other name: no text is lost', async () => {
    const remote = await fresh();
    const [a, b] = [await device(remote), await device(remote)];
    expect((await renamedApart(a, b)).conflicts.sort()).toEqual(['/memories/y.md', '/memories/z.md']);
    const there = [...(await remote.files()).texts.values()].sort();
    expect(there).toEqual(['a new\n', 'b new\n', 'one\n', 'one\n']);
  }, 30_000);

  it('a file written where this device deleted a synced folder is pushed at its name, not put aside', async () => {
    const remote = await fresh();
    const a = await device(remote);
    await write(a.tool, '/p/q/r.md', 'one\n');
    await a.sync.syncNow();
    await a.tool.delete({ command: 'delete', path: '/memories/p' });
    await write(a.tool, '/p/q', 'a file now\n');
    // One pass deletes /p/q/r.md there and, on WebDAV, the folder /p/q it empties, then pushes the file at its name.
    expect(await a.sync.syncNow()).toMatchObject({ pushed: ['/memories/p/q'], conflicts: [], skipped: [] });
    expect((await remote.files()).texts).toEqual(new Map([['/p/q', 'a file now\n']]));
  }, 30_000);

  it('a device whose folder the remote emptied pulls the file made in its place, not a conflict copy of it', async () => {
    const remote = await fresh();
    const [a, b] = [await device(remote), await device(remote)];
    await write(a.tool, '/p/q/r.md', 'one\n');
    await a.sync.syncNow();
    await b.sync.syncNow();
    await a.tool.delete({ command: 'delete', path: '/memories/p/q' });
    await a.sync.syncNow();
    await write(a.tool, '/p/q', 'a file now\n');
    await a.sync.syncNow();
    // B's pass deletes r.md here and pulls A's file in the place of the folder it empties.
    expect(await b.sync.syncNow()).toMatchObject({ pulled: ['/memories/p/q'], deleted: ['/memories/p/q/r.md'], conflicts: [] });
    expect((await remote.files()).texts).toEqual(new Map([['/p/q', 'a file now\n']]));
  }, 30_000);
});
