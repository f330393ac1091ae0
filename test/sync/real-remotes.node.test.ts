// The engine through both real remotes: Anthropic's Memory Stores through the SDK client (a loopback server that
// follows the API) and WebDAV through Debian's Apache httpd with mod_dav, each on loopback. Devices are tools on
// databases of their own; storms from test/helpers/sync-storm.ts. Each check of convergence also reads the remote on the
// server's side (the store's model, Apache's folder on disk), so devices that agree on something the remote does not
// hold fail.

import Anthropic from '@anthropic-ai/sdk';
import * as fs from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexedDBMemoryTool } from '../../src/index.js';
import { originalOf } from '../../src/sync/conflict-names.js';
import { createMemorySync } from '../../src/sync/memory-sync.js';
import type { MemorySync } from '../../src/sync/memory-sync.js';
import type { SyncRemote } from '../../src/sync/remote.js';
import { memoryStoreRemote } from '../../src/sync/remotes/memory-store.js';
import { webdavRemote } from '../../src/sync/remotes/webdav.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { folderFiles, lostVersions, memoryFiles, runSyncStorm, settle, storeFiles } from '../helpers/sync-storm.js';
import type { StormDevice } from '../helpers/sync-storm.js';
import { startApacheWebdav } from '../servers/apache-webdav.js';
import type { ApacheWebdav } from '../servers/apache-webdav.js';
import { startMemoryStoresServer } from '../servers/memory-stores-server.js';
import type { MemoryStoresServer } from '../servers/memory-stores-server.js';

const open = toolsClosedAfterEach('real-remotes');
const SEEDS = (process.env['SYNC_SEEDS'] ?? '1,2,3').split(',').map(Number);
let stores: MemoryStoresServer;
let dav: ApacheWebdav;
let folders = 0;

beforeAll(async () => {
  [stores, dav] = await Promise.all([startMemoryStoresServer(), startApacheWebdav()]);
}, 300_000);
afterAll(async () => {
  await Promise.all([stores?.close(), dav?.stop()]);
});

interface Remote {
  /** A new handle on the remote (one per device). */
  handle(): SyncRemote;
  /** Its files by path, read on the server's side. */
  files(): Promise<Record<string, string>>;
}

interface Kind {
  name: string;
  /** A fresh, empty remote. */
  fresh(): Remote;
  /** Requests made since `mark()`, by method. */
  mark(): () => string[];
}

const KINDS: Kind[] = [
  {
    name: 'Memory Stores (SDK client, loopback API)',
    fresh() {
      const store = stores.createStore();
      const client = new Anthropic({ apiKey: 'test', baseURL: stores.url, maxRetries: 0 });
      return {
        handle: () => memoryStoreRemote({ client, storeId: store.id }),
        files: async () => storeFiles(stores.api, store.id),
      };
    },
    mark() {
      const from = stores.requests.length;
      return () => stores.requests.slice(from).filter((r) => r.method !== 'OPTIONS').map((r) => r.method);
    },
  },
  {
    name: 'WebDAV (Apache httpd, mod_dav)',
    fresh() {
      const folder = `device-test-${++folders}`;
      const url = `${dav.url}${folder}/`;
      return {
        // Memory Stores' limit, so a refused version reads the same through both.
        handle: () =>
          webdavRemote({ url, username: dav.username, password: dav.password, fetch: countingFetch, maxFileBytes: 102_400 }),
        files: () => folderFiles(fs, join(dav.root, folder)),
      };
    },
    mark() {
      const from = davLog.length;
      return () => davLog.slice(from);
    },
  },
];

const davLog: string[] = [];
const countingFetch: typeof fetch = (input, init) => {
  davLog.push(init?.method ?? 'GET');
  return fetch(input, init);
};

async function devices(remote: Remote, count: number): Promise<StormDevice[]> {
  const out: StormDevice[] = [];
  for (let i = 0; i < count; i++) {
    const tool = await open();
    out.push({ tool, sync: createMemorySync(tool, { remote: remote.handle(), interval: null }) });
  }
  return out;
}

const create = (tool: IndexedDBMemoryTool, path: string, text: string) =>
  tool.create({ command: 'create', path, file_text: text });

function close(list: readonly { sync: MemorySync }[]): void {
  for (const { sync } of list) sync.close();
}

describe.each(KINDS)('two devices through $name', (kind) => {
  it('carry files both ways, keep both versions of a conflict, and agree after resolving it', async () => {
    const remote = kind.fresh();
    const [a, b] = (await devices(remote, 2)) as [StormDevice, StormDevice];
    await create(a.tool, '/memories/notes.md', 'from a\n');
    await create(a.tool, '/memories/projects/p/plan.md', 'plan\n');
    await a.sync.syncNow();
    expect((await b.sync.syncNow()).pulled.sort()).toEqual(['/memories/notes.md', '/memories/projects/p/plan.md']);

    await create(a.tool, '/memories/notes.md', 'edited on a\n');
    await create(b.tool, '/memories/notes.md', 'edited on b\n');
    await a.sync.syncNow();
    expect((await b.sync.syncNow()).conflicts).toEqual(['/memories/notes.md']);
    await a.sync.syncNow();
    const onA = await memoryFiles(a.tool);
    expect(onA).toEqual(await memoryFiles(b.tool));
    expect(onA).toEqual(await remote.files());
    expect(onA['/notes.md']).toBe('edited on a\n');
    const copy = b.sync.status().conflicts[0]?.copy ?? '';
    expect(onA[copy.slice('/memories'.length)]).toBe('edited on b\n');

    await b.sync.resolve(copy, 'copy');
    await b.sync.syncNow();
    await a.sync.syncNow();
    expect(await memoryFiles(a.tool)).toEqual({ '/notes.md': 'edited on b\n', '/projects/p/plan.md': 'plan\n' });
    close([a, b]);
  });

  it('carry a delete made after a refused version, and a version cut back under the limit, with no conflict', async () => {
    const remote = kind.fresh();
    const [a, b] = (await devices(remote, 2)) as [StormDevice, StormDevice];
    await create(a.tool, '/memories/big.md', 'small\n');
    await create(a.tool, '/memories/cut.md', 'small\n');
    await a.sync.syncNow();
    await b.sync.syncNow();
    await create(a.tool, '/memories/big.md', 'x'.repeat(150_000));
    await create(a.tool, '/memories/cut.md', 'x'.repeat(150_000));
    expect((await a.sync.syncNow()).skipped.map((skipped) => skipped.path).sort()).toEqual(['/memories/big.md', '/memories/cut.md']);
    await a.tool.delete({ command: 'delete', path: '/memories/big.md' });
    await create(a.tool, '/memories/cut.md', 'cut back\n');
    const report = await a.sync.syncNow();
    expect(report).toMatchObject({ pulled: [], deleted: ['/memories/big.md'], pushed: ['/memories/cut.md'], conflicts: [], skipped: [] });
    await b.sync.syncNow();
    const expected = { '/cut.md': 'cut back\n' };
    expect(await remote.files()).toEqual(expected);
    expect(await memoryFiles(a.tool)).toEqual(expected);
    expect(await memoryFiles(b.tool)).toEqual(expected);
    close([a, b]);
  });

  it('sends a folder rename as moves, file by file, and a pass with nothing changed lists and does nothing else', async () => {
    const [a, b] = (await devices(kind.fresh(), 2)) as [StormDevice, StormDevice];
    for (const name of ['x', 'y', 'z']) await create(a.tool, `/memories/old/${name}.md`, name);
    await a.sync.syncNow();
    await b.sync.syncNow();
    await a.tool.rename({ command: 'rename', old_path: '/memories/old', new_path: '/memories/new' });
    const moves = kind.mark();
    await a.sync.syncNow();
    const sent = moves();
    expect(sent.filter((method) => method === 'DELETE')).toEqual([]);
    expect(sent.filter((method) => method === 'PUT')).toEqual([]);
    await b.sync.syncNow();
    expect(await memoryFiles(b.tool)).toEqual({ '/new/x.md': 'x', '/new/y.md': 'y', '/new/z.md': 'z' });

    // WebDAV keeps /old, which the moves emptied: the next pass finds it empty on both sides and removes it.
    const tidy = kind.mark();
    const tidied = await b.sync.syncNow();
    expect(tidied).toMatchObject({ pulled: [], pushed: [], deleted: [], conflicts: [] });
    expect(tidy().filter((method) => method === 'DELETE')).toEqual(kind.name.startsWith('Memory') ? [] : ['DELETE']);

    const quiet = kind.mark();
    const report = await b.sync.syncNow();
    expect(report).toMatchObject({ pulled: [], pushed: [], deleted: [], conflicts: [] });
    // Memory Stores: one page (GET); WebDAV: one PROPFIND a folder, the root and /new.
    expect(quiet()).toEqual(kind.name.startsWith('Memory') ? ['GET'] : ['PROPFIND', 'PROPFIND']);
    close([a, b]);
  });

  // The file and the folder land on the remote in either order: whichever is there first, the folder keeps the name.
  it.each([
    ['the file', 'a'],
    ['the folder', 'b'],
  ] as const)('keep a file and a folder of the same name, the file under a conflict name, when %s is sent first', async (_, first) => {
    const remote = kind.fresh();
    const [a, b] = (await devices(remote, 2)) as [StormDevice, StormDevice];
    await create(a.tool, '/memories/plan', 'the plan, one file\n');
    await create(b.tool, '/memories/plan/step.md', 'step one\n');
    const order = first === 'a' ? [a, b] : [b, a];
    for (let round = 0; round < 2; round++) for (const { sync } of order) await sync.syncNow();

    const there = await remote.files();
    const copy = Object.keys(there).find((path) => originalOf(path) === '/plan') ?? 'no copy of /plan';
    expect(there).toEqual({ '/plan/step.md': 'step one\n', [copy]: 'the plan, one file\n' });
    for (const device of [a, b]) {
      expect(await memoryFiles(device.tool)).toEqual(there);
      // Listed as a conflict on both devices, not only on the one whose file moved aside.
      expect(device.sync.status().conflicts).toMatchObject([{ path: '/memories/plan', copy: `/memories${copy}` }]);
    }
    close([a, b]);
  });

  it.each(SEEDS)('three devices converge on what the remote holds, with nothing lost (seed %i)', async (seed) => {
    const remote = kind.fresh();
    const list = await devices(remote, 3);
    const written = await runSyncStorm(list, seed, 60);
    await settle(list);
    const there = await remote.files();
    expect(Object.keys(there).length).toBeGreaterThan(0);
    for (const { tool } of list) expect(await memoryFiles(tool)).toEqual(there);
    expect(await lostVersions(list, written)).toEqual([]);
    close(list);
  }, 300_000);
});

describe('a first pull from Memory Stores', () => {
  it("brings many files through the folders' listings with content, not one read each", async () => {
    const store = stores.createStore();
    for (let i = 0; i < 60; i++) stores.api.createMemory(store.id, { path: `/notes/n${i}.md`, content: `note ${i}` });
    for (let i = 0; i < 30; i++) stores.api.createMemory(store.id, { path: `/logs/l${i}.md`, content: `log ${i}` });
    const client = new Anthropic({ apiKey: 'test', baseURL: stores.url, maxRetries: 0 });
    const tool = await open();
    const sync = createMemorySync(tool, { remote: memoryStoreRemote({ client, storeId: store.id }), interval: null });
    const from = stores.requests.length;
    const report = await sync.syncNow();
    expect(report.pulled).toHaveLength(90);
    expect(await tool.read('/memories/logs/l7.md')).toBe('log 7');
    const calls = stores.requests.slice(from).filter((request) => request.method !== 'OPTIONS');
    // A read of one memory is a GET of /memories/<id>; none were made.
    expect(calls.filter((request) => /\/memories\/[^/]+$/u.test(request.path))).toEqual([]);
    expect(calls.length).toBeLessThan(15);
    sync.close();
  });
});
