// Sync between devices, each a Chromium profile on disk with its own memory, through real remotes on loopback: the
// Memory Stores API (a loopback server that follows it, through the real SDK client in the page) and WebDAV (Apache
// httpd with mod_dav). Edits on both, conflicts, deletes, folder renames, a device offline for a while, a browser
// killed mid-sync, and seeded storms (test/helpers/sync-storm.ts) whose every command runs in the devices' pages.
// Devices are also compared with the remote itself, read on the server's side (the store's model, Apache's folder).

import * as fs from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexedDBMemoryTool } from '../../src/index.js';
import type { MemorySync, SyncReport, SyncStatus } from '../../src/entries/sync.js';
import { folderFiles, lostVersions, memoryFiles, runSyncStorm, settle, storeFiles } from '../helpers/sync-storm.js';
import type { StormDevice } from '../helpers/sync-storm.js';
import { startApacheWebdav } from '../servers/apache-webdav.js';
import type { ApacheWebdav } from '../servers/apache-webdav.js';
import { startMemoryStoresServer } from '../servers/memory-stores-server.js';
import type { MemoryStoresServer } from '../servers/memory-stores-server.js';
import { diskProfile, servedForFile, startDevServer } from './harness.js';
import type { DiskProfile } from './harness.js';
import type { Answer, RemoteConfig } from './pages/sync-device.js';

const PAGE = 'test/e2e/pages/sync-device.html';
const site = servedForFile(startDevServer);
let stores: MemoryStoresServer;
let dav: ApacheWebdav;
let folders = 0;

beforeAll(async () => {
  [stores, dav] = await Promise.all([startMemoryStoresServer(), startApacheWebdav()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([stores?.close(), dav?.stop()]);
});

const memoryStore = (): RemoteConfig => ({ kind: 'memory-store', baseURL: stores.url, storeId: stores.createStore().id });
const webdav = (): RemoteConfig => ({
  kind: 'webdav',
  url: `${dav.url}e2e-${++folders}/`,
  username: dav.username,
  password: dav.password,
});

/** The remote's files by path, read on the server's side, not through the adapter the pages use. */
const serverFiles = async (remote: RemoteConfig): Promise<Record<string, string>> =>
  remote.kind === 'memory-store'
    ? storeFiles(stores.api, remote.storeId)
    : folderFiles(fs, join(dav.root, remote.url.slice(dav.url.length).replace(/\/$/u, '')));

/** One device: a browser profile on disk, its page, its memory (a database of its own) synced with `remote`. */
class Device {
  page!: Page;
  readonly #profile: DiskProfile;
  readonly #db = `sync-e2e-${crypto.randomUUID()}`;
  readonly #remote: RemoteConfig;
  readonly #interval: number | null;

  private constructor(profile: DiskProfile, remote: RemoteConfig, interval: number | null) {
    this.#profile = profile;
    this.#remote = remote;
    this.#interval = interval;
  }

  static async start(remote: RemoteConfig, interval: number | null = null): Promise<Device> {
    const device = new Device(await diskProfile(), remote, interval);
    await device.launch();
    return device;
  }

  /** Starts (or starts again, after a kill) the browser on the profile and opens the memory and its sync. */
  async launch(): Promise<void> {
    const context = await this.#profile.launch();
    this.page = await context.newPage();
    this.page.setDefaultTimeout(120_000);
    await this.page.goto(`${site.url}${PAGE}`);
    await this.page.waitForFunction(() => document.body.dataset.ready === 'true');
    await this.call((args) => window.syncDevice.open(args.db, args.remote, args.interval), {
      db: this.#db,
      remote: this.#remote,
      interval: this.#interval,
    });
  }

  /** Runs `work` in the page; a failure there is thrown here with its fields (a MemoryToolError stays one). */
  async call<T, A>(work: (args: A) => Promise<Answer<T>>, args: A): Promise<T> {
    const answered = (await this.page.evaluate(work as never, args)) as Answer<T>;
    if ('error' in answered) throw answered.error;
    return answered.value;
  }

  command(input: Record<string, unknown>): Promise<string> {
    return this.call((command) => window.syncDevice.command(command), input);
  }

  syncNow(confirmDeletes = false): Promise<SyncReport> {
    return this.call((options) => window.syncDevice.syncNow(options), { confirmDeletes });
  }

  files(): Promise<Record<string, string>> {
    return this.call(() => window.syncDevice.files(), null);
  }

  status(): Promise<SyncStatus | null> {
    return this.page.evaluate(() => window.syncDevice.status());
  }

  /** The same device as the storm driver's tool and sync, every call made in the page. */
  get storm(): StormDevice {
    const tool = {
      create: (input: Record<string, unknown>) => this.command(input),
      delete: (input: Record<string, unknown>) => this.command(input),
      rename: (input: Record<string, unknown>) => this.command(input),
      read: (path: string) => this.call((p) => window.syncDevice.read(p), path),
      list: (path: string) => this.call((p) => window.syncDevice.list(p), path),
      history: (options: object) => this.call((o) => window.syncDevice.history(o), options),
      change: (id: number) => this.call((i) => window.syncDevice.change(i), id),
    };
    const sync = { syncNow: (options?: { confirmDeletes?: boolean }) => this.syncNow(options?.confirmDeletes ?? false) };
    return { tool: tool as unknown as IndexedDBMemoryTool, sync: sync as unknown as MemorySync };
  }

  kill(): Promise<void> {
    return this.#profile.kill();
  }

  close(): Promise<void> {
    return this.#profile.close();
  }
}

async function devices(count: number, remote: RemoteConfig, interval: number | null = null): Promise<Device[]> {
  const out: Device[] = [];
  for (let i = 0; i < count; i++) out.push(await Device.start(remote, interval));
  return out;
}

const closeAll = (list: readonly Device[]): Promise<unknown> => Promise.all(list.map((device) => device.close()));
const create = (path: string, text: string) => ({ command: 'create', path, file_text: text });

describe('two Chromium profiles', () => {
  it('agree through Memory Stores after edits on both, a conflict, a delete and a folder rename', async () => {
    const remote = memoryStore();
    const storeId = remote.kind === 'memory-store' ? remote.storeId : '';
    const idAt = (path: string): string | undefined =>
      stores.api.listMemories(storeId, { limit: '100' }).data.find((item) => item.path === path && 'id' in item)?.['id' as never];
    const list = await devices(2, remote);
    const [a, b] = list as [Device, Device];
    try {
      await a.command(create('/memories/notes.md', 'first\n'));
      await a.command(create('/memories/project/todo.md', '- write\n'));
      await a.command(create('/memories/old.md', 'to delete\n'));
      await a.syncNow();
      await b.syncNow();
      expect(await b.files()).toEqual(await a.files());
      const todoId = idAt('/project/todo.md');
      expect(todoId).toMatch(/^mem/u);

      await a.command(create('/memories/notes.md', 'a says\n'));
      await b.command(create('/memories/notes.md', 'b says\n'));
      await b.command({ command: 'delete', path: '/memories/old.md' });
      await a.command({ command: 'rename', old_path: '/memories/project', new_path: '/memories/work' });
      await a.syncNow();
      const report = await b.syncNow();
      expect(report.conflicts).toEqual(['/memories/notes.md']);
      await a.syncNow();

      const onA = await a.files();
      expect(onA).toEqual(await b.files());
      expect(onA['/notes.md']).toBe('a says\n');
      expect(Object.entries(onA).find(([path]) => path.startsWith('/notes.conflict-'))?.[1]).toBe('b says\n');
      expect(onA['/work/todo.md']).toBe('- write\n');
      expect(onA['/old.md']).toBeUndefined();
      expect(onA).toEqual(await serverFiles(remote));
      // The renamed file kept its memory (and so its versions): the same id, now at the new path.
      expect(idAt('/work/todo.md')).toBe(todoId);
    } finally {
      await closeAll(list);
    }
  });

  it('catch up after one was offline for a while, by itself once back online (WebDAV)', async () => {
    const remote = webdav();
    const list = await devices(2, remote, 3_600_000);
    const [a, b] = list as [Device, Device];
    try {
      await a.command(create('/memories/shared.md', 'v1\n'));
      await a.syncNow();
      await b.syncNow();
      await b.page.context().setOffline(true);
      await a.command(create('/memories/shared.md', 'v2 from a\n'));
      await a.syncNow();
      await b.command(create('/memories/offline.md', 'written offline\n'));
      await expect(b.syncNow()).rejects.toMatchObject({ kind: 'network' });
      expect(await b.status()).toMatchObject({ state: 'error', error: { kind: 'network' } });
      const before = (await b.status())?.lastSync;
      await b.page.context().setOffline(false);
      // No syncNow: coming back online starts a pass.
      await expect
        .poll(async () => {
          const status = await b.status();
          return status?.state === 'idle' && status.lastSync !== before;
        }, { timeout: 60_000 })
        .toBe(true);
      await a.syncNow();
      expect(await b.files()).toEqual({ '/offline.md': 'written offline\n', '/shared.md': 'v2 from a\n' });
      expect(await a.files()).toEqual(await b.files());
      expect(await a.files()).toEqual(await serverFiles(remote));
    } finally {
      await closeAll(list);
    }
  });

  it('lose nothing and duplicate nothing when a browser is killed in the middle of a pass', async () => {
    const remote = memoryStore();
    const list = await devices(2, remote);
    const [a, b] = list as [Device, Device];
    const count = 30;
    try {
      for (let i = 0; i < count; i++) await a.command(create(`/memories/f${i}.md`, `file ${i}\n`));
      stores.latencyMs = 150;
      const writes = (): number => stores.requests.filter((r) => r.method === 'POST').length;
      const before = writes();
      void a.syncNow().catch(() => undefined);
      await expect.poll(() => writes() - before, { timeout: 60_000 }).toBeGreaterThanOrEqual(3);
      await a.kill();
      stores.latencyMs = 0;
      expect(writes() - before).toBeLessThan(count);

      await a.launch();
      const resumed = await a.syncNow();
      expect(resumed.conflicts).toEqual([]);
      await b.syncNow();
      const expected = Object.fromEntries(Array.from({ length: count }, (_, i) => [`/f${i}.md`, `file ${i}\n`]));
      expect(await a.files()).toEqual(expected);
      expect(await b.files()).toEqual(expected);
      expect(await serverFiles(remote)).toEqual(expected);
    } finally {
      stores.latencyMs = 0;
      await closeAll(list);
    }
  });
});

describe('the dev server\'s API proxy', () => {
  it('carries Memory Stores calls for the page, with the key added on the server (one connection for chat and sync)', async () => {
    const proxied = await startDevServer({ ANTHROPIC_API_KEY: 'sk-ant-server-side', ANTHROPIC_PROXY_TARGET: stores.url });
    const storeId = stores.createStore().id;
    const profile = await diskProfile();
    try {
      const page = await (await profile.launch()).newPage();
      await page.goto(`${proxied.url}${PAGE}`);
      await page.waitForFunction(() => document.body.dataset.ready === 'true');
      const from = stores.requests.length;
      const remote: RemoteConfig = { kind: 'memory-store', baseURL: `${proxied.url}anthropic`, storeId };
      const report = await page.evaluate(async (config) => {
        const opened = await window.syncDevice.open(`proxy-${Date.now()}`, config, null);
        if ('error' in opened) return opened;
        await window.syncDevice.command({ command: 'create', path: '/memories/via-proxy.md', file_text: 'through the proxy' });
        return window.syncDevice.syncNow({});
      }, remote);
      expect(report).toMatchObject({ value: { pushed: ['/memories/via-proxy.md'] } });
      const seen = stores.requests.slice(from).filter((request) => request.method !== 'OPTIONS');
      expect(seen.length).toBeGreaterThan(0);
      // The key the server holds, never the page's placeholder; and no browser Origin, as a server-to-server call.
      expect(seen.every((request) => request.headers['x-api-key'] === 'sk-ant-server-side' && !request.headers['origin'])).toBe(true);
    } finally {
      await profile.close();
      await proxied.close();
    }
  });
});

describe.each([
  ['Memory Stores', memoryStore, 5],
  ['WebDAV', webdav, 6],
])('seeded storms on three Chromium profiles through %s', (_, remote, seed) => {
  it(`converge on what the remote holds, with every version kept (seed ${seed})`, async () => {
    const config = remote();
    const list = await devices(3, config);
    try {
      const storm = list.map((device) => device.storm);
      const written = await runSyncStorm(storm, seed, 50);
      await settle(storm);
      const there = await serverFiles(config);
      expect(Object.keys(there).length).toBeGreaterThan(0);
      for (const device of storm) expect(await memoryFiles(device.tool)).toEqual(there);
      expect(await lostVersions(storm, written)).toEqual([]);
    } finally {
      await closeAll(list);
    }
  });
});
