// The two real remotes as a storm sees them: a fresh remote per run, a handle per device, its content read on the
// server's side (Apache's folder on disk, the loopback Memory Stores model), and what a storm does there directly
// (a binary file planted in Apache's folder; another writer on the store). Node-only; wraps test/servers/.

import Anthropic from '@anthropic-ai/sdk';
import { Buffer } from 'node:buffer';
import { chown, readdir, readFile, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SyncRemote } from '../../src/sync/remote.js';
import { memoryStoreRemote } from '../../src/sync/remotes/memory-store.js';
import { webdavRemote } from '../../src/sync/remotes/webdav.js';
import { LOOPBACK_TIMEOUT_MS, type ApacheWebdav } from '../servers/apache-webdav.js';
import type { MemoryStoresServer } from '../servers/memory-stores-server.js';

/** A remote's files read on its side: texts by path, and the files that are not UTF-8 text, as bytes. */
export interface ServerFiles {
  texts: Map<string, string>;
  binaries: Map<string, Buffer>;
}

export interface StormRemote {
  readonly name: string;
  /** The largest text the remote takes, in UTF-8 bytes. */
  readonly limit: number;
  /** How long a lock left behind holds its file (0: the remote has no locks). */
  readonly lockLapseMs: number;
  /** A handle for device `index` (devices may differ in what they know of the limit). */
  handle(index: number): SyncRemote;
  /** Its files, read on the server's side. */
  files(): Promise<ServerFiles>;
  /** Plants bytes that are no UTF-8 text at `path` (a Finder `.DS_Store`); false where the remote holds only text. */
  plantBinary(path: string, bytes: Buffer): Promise<boolean>;
  /** Another writer (an agent) sets `path` to `text`, over whatever is there; false where the remote refuses it. */
  writeAsServer(path: string, text: string): Promise<boolean>;
  /** Removes folders left empty on the server (someone tidying it up). */
  removeEmptyFolders(): Promise<void>;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function decoded(bytes: Buffer): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

let stores = 0;

/** A fresh store on the loopback Memory Stores server, driven through the real SDK client. */
export function memoryStoresStormRemote(server: MemoryStoresServer): StormRemote {
  const store = server.createStore(`storm ${++stores}`);
  const client = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
  const all = () => {
    const out: { id: string; path: string; content: string }[] = [];
    let page: string | undefined;
    do {
      const answer = server.api.listMemories(store.id, { view: 'full', limit: '20', ...(page === undefined ? {} : { page }) });
      for (const item of answer.data) {
        if (item.type === 'memory' && typeof item.content === 'string') out.push({ id: item.id, path: item.path, content: item.content });
      }
      page = answer.next_page ?? undefined;
    } while (page !== undefined);
    return out;
  };
  return {
    name: 'Memory Stores',
    limit: server.api.limits.maxContentBytes,
    lockLapseMs: 0,
    handle: () => memoryStoreRemote({ client, storeId: store.id }),
    async files() {
      return { texts: new Map(all().map((memory) => [memory.path, memory.content])), binaries: new Map() };
    },
    plantBinary: async () => false,
    async writeAsServer(path, text) {
      const current = all().find((memory) => memory.path === path);
      try {
        if (current === undefined) server.api.createMemory(store.id, { path, content: text });
        else server.api.updateMemory(store.id, current.id, { content: text });
        return true;
      } catch {
        // A folder or a file in the way: the API refuses, as it would the agent.
        return false;
      }
    },
    // Memory Stores keeps no folders.
    removeEmptyFolders: async () => undefined,
  };
}

let folders = 0;

/**
 * A fresh folder on Apache mod_dav. Device 0 is told nothing of the body limit (a big PUT meets Apache's 413); the
 * others pass it as `maxFileBytes` (refused before sending).
 */
export async function webdavStormRemote(dav: ApacheWebdav, limit: number): Promise<StormRemote> {
  const folder = `storm-${++folders}`;
  const root = join(dav.root, folder);
  const url = `${dav.url}${folder}/`;
  // Made by a PUT of its first file otherwise; made here so that a planted file has a folder owned by Apache.
  await fetch(url, { method: 'MKCOL', headers: { authorization: `Basic ${Buffer.from(`${dav.username}:${dav.password}`).toString('base64')}` } });
  const walk = async (below: string, out: ServerFiles): Promise<void> => {
    for (const entry of await readdir(join(root, below), { withFileTypes: true })) {
      // mod_dav_fs keeps dead properties in `.DAV` folders: its own, not the remote's content.
      if (entry.name === '.DAV') continue;
      const path = `${below}/${entry.name}`;
      if (entry.isDirectory()) {
        await walk(path, out);
        continue;
      }
      const bytes = await readFile(join(root, path));
      const text = decoded(bytes);
      if (text === undefined) out.binaries.set(path, bytes);
      else out.texts.set(path, text);
    }
  };
  return {
    name: 'WebDAV',
    limit,
    lockLapseMs: 4 * LOOPBACK_TIMEOUT_MS,
    handle: (index) =>
      webdavRemote({
        url,
        username: dav.username,
        password: dav.password,
        timeoutMs: LOOPBACK_TIMEOUT_MS,
        ...(index === 0 ? {} : { maxFileBytes: limit }),
      }),
    async files() {
      const out: ServerFiles = { texts: new Map(), binaries: new Map() };
      await walk('', out);
      return out;
    },
    async plantBinary(path, bytes) {
      const parent = join(root, path.slice(0, path.lastIndexOf('/')));
      // Only into a folder Apache made (a folder made here would be ours, and Apache could not write in it).
      const owner = await stat(parent).catch(() => undefined);
      if (owner === undefined || !owner.isDirectory()) return false;
      const file = join(root, path);
      if (await stat(file).then((s) => s.isDirectory(), () => false)) return false;
      await writeFile(file, bytes);
      await chown(file, owner.uid, owner.gid);
      return true;
    },
    // Apache's ETag is the inode, size and time: a text changed in place within a second can keep its tag, which no
    // client could tell from no change. Only binaries are planted here.
    writeAsServer: async () => false,
    async removeEmptyFolders() {
      const tidy = async (below: string): Promise<boolean> => {
        const entries = await readdir(join(root, below), { withFileTypes: true });
        let empty = true;
        for (const entry of entries) {
          if (entry.name === '.DAV') continue;
          if (!entry.isDirectory() || !(await tidy(`${below}/${entry.name}`))) empty = false;
        }
        if (empty && below !== '') {
          // mod_dav_fs's `.DAV` folder of dead properties goes with it.
          await rm(join(root, below, '.DAV'), { recursive: true, force: true });
          await rmdir(join(root, below));
        }
        return empty;
      };
      await tidy('');
    },
  };
}
