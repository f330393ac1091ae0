// The engine through both real remotes: Anthropic's Memory Stores through the SDK client (a loopback server that
// follows the API) and WebDAV through Debian's Apache httpd with mod_dav, each on loopback. Devices are tools on
// databases of their own; storms from test/helpers/sync-storm.ts.

import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexedDBMemoryTool } from '../../src/index.js';
import { createMemorySync } from '../../src/sync/memory-sync.js';
import type { MemorySync } from '../../src/sync/memory-sync.js';
import type { SyncRemote } from '../../src/sync/remote.js';
import { memoryStoreRemote } from '../../src/sync/remotes/memory-store.js';
import { webdavRemote } from '../../src/sync/remotes/webdav.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { lostVersions, memoryFiles, runSyncStorm, settle } from '../helpers/sync-storm.js';
import type { StormDevice } from '../helpers/sync-storm.js';
import { startApacheWebdav } from '../servers/apache-webdav.js';
import type { ApacheWebdav } from '../servers/apache-webdav.js';
import { startMemoryStoresServer } from '../servers/memory-stores-server.js';
import type { MemoryStoresServer } from '../servers/memory-stores-server.js';

const open = toolsClosedAfterEach('real-remotes');
let stores: MemoryStoresServer;
let dav: ApacheWebdav;
let folders = 0;

beforeAll(async () => {
  [stores, dav] = await Promise.all([startMemoryStoresServer(), startApacheWebdav()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([stores?.close(), dav?.stop()]);
});

interface Kind {
  name: string;
  /** A fresh, empty remote, and a way to make more handles on it (one per device). */
  fresh(): () => SyncRemote;
  /** Requests made since `mark()`, by method. */
  mark(): () => string[];
}

const KINDS: Kind[] = [
  {
    name: 'Memory Stores (SDK client, loopback API)',
    fresh() {
      const store = stores.createStore();
      const client = new Anthropic({ apiKey: 'test', baseURL: stores.url, maxRetries: 0 });
      return () => memoryStoreRemote({ client, storeId: store.id });
    },
    mark() {
      const from = stores.requests.length;
      return () => stores.requests.slice(from).filter((r) => r.method !== 'OPTIONS').map((r) => r.method);
    },
  },
  {
    name: 'WebDAV (Apache httpd, mod_dav)',
    fresh() {
      const url = `${dav.url}device-test-${++folders}/`;
      return () => webdavRemote({ url, username: dav.username, password: dav.password, fetch: countingFetch });
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

async function devices(kind: Kind, count: number): Promise<StormDevice[]> {
  const handle = kind.fresh();
  const out: StormDevice[] = [];
  for (let i = 0; i < count; i++) {
    const tool = await open();
    out.push({ tool, sync: createMemorySync(tool, { remote: handle(), interval: null }) });
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
    const [a, b] = (await devices(kind, 2)) as [StormDevice, StormDevice];
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
    expect(onA['/notes.md']).toBe('edited on a\n');
    const copy = b.sync.status().conflicts[0]?.copy ?? '';
    expect(onA[copy.slice('/memories'.length)]).toBe('edited on b\n');

    await b.sync.resolve(copy, 'copy');
    await b.sync.syncNow();
    await a.sync.syncNow();
    expect(await memoryFiles(a.tool)).toEqual({ '/notes.md': 'edited on b\n', '/projects/p/plan.md': 'plan\n' });
    close([a, b]);
  });

  it('sends a folder rename as moves, file by file, and a pass with nothing changed lists and does nothing else', async () => {
    const [a, b] = (await devices(kind, 2)) as [StormDevice, StormDevice];
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

    const quiet = kind.mark();
    const report = await b.sync.syncNow();
    expect(report).toMatchObject({ pulled: [], pushed: [], deleted: [], conflicts: [] });
    // Memory Stores: one page (GET); WebDAV: one PROPFIND a folder — the root, /new, and /old, which the moves
    // emptied and the adapter leaves (a folder's DELETE is recursive, and cannot be made conditional on Apache).
    expect(quiet()).toEqual(kind.name.startsWith('Memory') ? ['GET'] : ['PROPFIND', 'PROPFIND', 'PROPFIND']);
    close([a, b]);
  });

  it.each([1, 2])('three devices converge with nothing lost (seed %i)', async (seed) => {
    const list = await devices(kind, 3);
    const written = await runSyncStorm(list, seed, 60);
    await settle(list);
    const first = await memoryFiles((list[0] as StormDevice).tool);
    for (const { tool } of list) expect(await memoryFiles(tool)).toEqual(first);
    expect(await lostVersions(list, written)).toEqual([]);
    close(list);
  }, 60_000);
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
