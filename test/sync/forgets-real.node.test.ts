// Forgetting through both real remotes: the loopback Memory Stores API driven by the SDK client (where the forgotten
// file's versions are redacted too) and Apache httpd's mod_dav. Three devices; the remote is read on the server's side
// (the store's model with every version, Apache's folder on disk).

import Anthropic from '@anthropic-ai/sdk';
import * as fs from 'node:fs/promises';
import { join } from 'node:path';
import { openDB } from 'idb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexedDBMemoryTool } from '../../src/index.js';
import { sha256All } from '../../src/bundle/sha256.js';
import { CONTROL_PATH } from '../../src/sync/forget-control.js';
import { createMemorySync } from '../../src/sync/memory-sync.js';
import type { MemorySync } from '../../src/sync/memory-sync.js';
import type { SyncRemote } from '../../src/sync/remote.js';
import { memoryStoreRemote } from '../../src/sync/remotes/memory-store.js';
import type { MemoryVersionsClient } from '../../src/sync/remotes/memory-store-redact.js';
import { webdavRemote } from '../../src/sync/remotes/webdav.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { folderFiles, storeFiles } from '../helpers/sync-storm.js';
import { startApacheWebdav } from '../servers/apache-webdav.js';
import type { ApacheWebdav } from '../servers/apache-webdav.js';
import { startMemoryStoresServer } from '../servers/memory-stores-server.js';
import type { MemoryStoresServer } from '../servers/memory-stores-server.js';

const open = toolsClosedAfterEach('forgets-real');
const SECRET = 'the vault code is QX7-zebra-lantern-4417\n';
const EDITED = 'the vault code is now QX7-otter-harbour-9020\n';
let stores: MemoryStoresServer;
let dav: ApacheWebdav;
let folders = 0;

beforeAll(async () => {
  [stores, dav] = await Promise.all([startMemoryStoresServer(), startApacheWebdav()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([stores?.close(), dav?.stop()]);
});

interface Remote {
  handle(): SyncRemote;
  /** Its files by path, read on the server's side. */
  files(): Promise<Record<string, string>>;
  /** Everything the remote still holds of its history, as text (versions; none on WebDAV). */
  history(): string;
}

const KINDS: { name: string; fresh(): Remote }[] = [
  {
    name: 'Memory Stores (SDK client, loopback API)',
    fresh() {
      const store = stores.createStore();
      const client = new Anthropic({ apiKey: 'test', baseURL: stores.url, maxRetries: 0 });
      // The SDK's client fits the shape redaction calls (checked by the type checker).
      const versions: MemoryVersionsClient = client.beta.memoryStores.memoryVersions;
      expect(typeof versions.redact).toBe('function');
      return {
        handle: () => memoryStoreRemote({ client, storeId: store.id }),
        files: async () => storeFiles(stores.api, store.id),
        history: () => {
          const versions: unknown[] = [];
          let page: string | undefined;
          do {
            const answer = stores.api.listVersions(store.id, { view: 'full', ...(page === undefined ? {} : { page }) });
            versions.push(...answer.data);
            page = answer.next_page ?? undefined;
          } while (page !== undefined);
          return JSON.stringify(versions);
        },
      };
    },
  },
  {
    name: 'WebDAV (Apache httpd, mod_dav)',
    fresh() {
      const folder = `forgets-${++folders}`;
      const url = `${dav.url}${folder}/`;
      return {
        handle: () => webdavRemote({ url, username: dav.username, password: dav.password }),
        files: () => folderFiles(fs, join(dav.root, folder)),
        history: () => '',
      };
    },
  },
];

interface Device {
  tool: IndexedDBMemoryTool;
  sync: MemorySync;
}

async function device(remote: Remote): Promise<Device> {
  const tool = await open();
  return { tool, sync: createMemorySync(tool, { remote: remote.handle(), interval: null }) };
}

async function dump(tool: IndexedDBMemoryTool): Promise<string> {
  const db = await openDB(tool.dbName);
  try {
    const names = [...db.objectStoreNames];
    const tx = db.transaction(names, 'readonly');
    return JSON.stringify(
      await Promise.all(names.map(async (name) => [await tx.objectStore(name).getAllKeys(), await tx.objectStore(name).getAll()])),
    );
  } finally {
    db.close();
  }
}

async function traces(text: string, secrets: readonly string[]): Promise<string[]> {
  const hashes = await sha256All(secrets, () => undefined);
  return [...secrets.map((secret) => secret.trim()), ...hashes.flatMap((hash) => (hash ? [hash] : []))].filter((mark) =>
    text.includes(mark),
  );
}

async function memoryFiles(tool: IndexedDBMemoryTool): Promise<string[]> {
  return (await tool.list('/memories')).filter((entry) => entry.kind === 'file').map((entry) => entry.path);
}

describe.each(KINDS)('forget through $name', (kind) => {
  it('removes the file there and on three devices for good, and keeps nothing of its text anywhere', async () => {
    const remote = kind.fresh();
    const devices = [await device(remote), await device(remote), await device(remote)];
    const [a, b, c] = devices as [Device, Device, Device];
    const syncAll = async (): Promise<void> => {
      for (let round = 0; round < 2; round++) for (const one of devices) await one.sync.syncNow();
    };
    await a.tool.create({ command: 'create', path: '/memories/vault.md', file_text: SECRET });
    await a.tool.create({ command: 'create', path: '/memories/notes.md', file_text: 'plain\n' });
    await syncAll();
    // Changed on another device since A's last pass: A's forget removes that version too.
    await b.tool.str_replace({ command: 'str_replace', path: '/memories/vault.md', old_str: SECRET, new_str: EDITED });
    await b.sync.syncNow();

    await a.tool.forget('/memories/vault.md');
    await syncAll();
    // What a person does to get a deleted file back: undo the latest change (today, the sync's delete of it).
    for (const one of [b, c]) await one.tool.undo().catch(() => undefined);
    await syncAll();

    for (const one of devices) {
      expect(await memoryFiles(one.tool)).toEqual(['/memories/notes.md']);
      expect(await traces(await dump(one.tool), [SECRET, EDITED])).toEqual([]);
    }
    expect(Object.keys(await remote.files())).toEqual([CONTROL_PATH, '/notes.md']);
    expect(await traces(remote.history(), [SECRET, EDITED])).toEqual([]);
    expect(await traces(JSON.stringify(await remote.files()), [SECRET, EDITED, '/vault.md'])).toEqual([]);
  }, 60_000);
});
