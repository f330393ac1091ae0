// compactStorage(): the memory moved to a fresh database and the old one deleted (src/storage/compact.ts). Every
// record must come through, ids go on past the old ones, other tools reconnect, and a staging copy a closed page left
// is finished (or dropped) by the next open. What stays on disk: test/e2e/erase-on-disk.test.ts.

import { describe, expect, it } from 'vitest';
import { openDB } from 'idb';
import { IndexedDBMemoryTool } from '../../src/index.js';
import { stagingName } from '../../src/storage/compact.js';
import { DB_VERSION } from '../../src/storage/schema.js';
import type { SyncRecord } from '../../src/storage/schema.js';
import { freshDbName, toolsClosedAfterEach } from '../helpers/fresh-tool.js';

const open = toolsClosedAfterEach('compact');
const STORES = ['entries', 'bodies', 'journal', 'sync'] as const;

interface Dump {
  version: number;
  records: Record<(typeof STORES)[number], Array<[unknown, unknown]>>;
}

/** Every record of every store, with its key, read behind the tool. */
async function dump(dbName: string): Promise<Dump> {
  const db = await openDB(dbName);
  try {
    const records = {} as Dump['records'];
    for (const store of STORES) {
      const [keys, values] = await Promise.all([db.getAllKeys(store), db.getAll(store)]);
      records[store] = keys.map((key, i) => [key, values[i]]);
    }
    return { version: db.version, records };
  } finally {
    db.close();
  }
}

async function exists(dbName: string): Promise<boolean> {
  return (await indexedDB.databases()).some((info) => info.name === dbName);
}

/** A memory with files, edits, a rename, a delete and a sync baseline: every kind of record. */
async function filledMemory(dbName: string): Promise<IndexedDBMemoryTool> {
  const tool = await open({ dbName });
  await tool.create({ command: 'create', path: '/memories/a.md', file_text: 'alpha\n' });
  await tool.create({ command: 'create', path: '/memories/notes/b.md', file_text: 'beta\n' });
  await tool.str_replace({ command: 'str_replace', path: '/memories/a.md', old_str: 'alpha', new_str: 'ALPHA' });
  await tool.rename({ command: 'rename', old_path: '/memories/notes', new_path: '/memories/kept' });
  await tool.create({ command: 'create', path: '/memories/gone.md', file_text: 'gone\n' });
  await tool.delete({ command: 'delete', path: '/memories/gone.md' });
  const db = await openDB(dbName);
  const baseline: SyncRecord = { mount: 'dav', path: 'a.md', state: 'synced', local: 3, sha256: 'ab', remote: { path: 'a.md', version: 'v1' } };
  await db.put('sync', baseline);
  db.close();
  return tool;
}

describe('compactStorage()', () => {
  it('keeps every file, history entry, old text and sync baseline, with their keys', async () => {
    const dbName = freshDbName('compact');
    const tool = await filledMemory(dbName);
    const before = await dump(dbName);
    const historyBefore = await tool.history();
    expect(await tool.compactStorage()).toEqual({
      files: 2,
      bodies: before.records.bodies.length,
      changes: historyBefore.length,
    });
    expect(await dump(dbName)).toEqual(before);
    expect(await exists(stagingName(dbName))).toBe(false);
    expect(await tool.history()).toEqual(historyBefore);
    expect(await tool.read('/memories/kept/b.md')).toBe('beta\n');
    // The history still works on the fresh database: the delete is undone, its text comes back.
    await tool.undo();
    expect(await tool.read('/memories/gone.md')).toBe('gone\n');
  });

  it('gives new texts ids past every id used before, also those deleted since', async () => {
    const dbName = freshDbName('compact');
    const tool = await open({ dbName, history: false });
    await tool.create({ command: 'create', path: '/memories/a.md', file_text: 'one' });
    await tool.create({ command: 'create', path: '/memories/a.md', file_text: 'two' });
    await tool.create({ command: 'create', path: '/memories/a.md', file_text: 'three' });
    const idsBefore = (await dump(dbName)).records.bodies.map(([key]) => key as number);
    await tool.compactStorage();
    await tool.create({ command: 'create', path: '/memories/b.md', file_text: 'new' });
    const other = await open({ dbName });
    await other.create({ command: 'create', path: '/memories/c.md', file_text: 'newer' });
    const entries = (await dump(dbName)).records.entries.map(([, value]) => value as { path: string; bodyId?: number });
    const newIds = entries.filter((e) => e.path !== '/memories/a.md' && e.bodyId !== undefined).map((e) => e.bodyId ?? 0);
    expect(newIds).toHaveLength(2);
    // Three texts were written before (two deleted since): the new ones take ids past all three.
    expect(Math.min(...newIds)).toBeGreaterThan(Math.max(...idsBefore, 3));
  });

  it('lets another tool on the database step aside and go on writing after it', async () => {
    const dbName = freshDbName('compact');
    const tool = await filledMemory(dbName);
    const other = await open({ dbName });
    await other.view({ command: 'view', path: '/memories' });
    await tool.compactStorage();
    await other.create({ command: 'create', path: '/memories/after.md', file_text: 'after\n' });
    expect(await tool.read('/memories/after.md')).toBe('after\n');
  });
});

/** The staging copy of `dump` as a page closed after writing it would leave it (`complete`: its last record). */
async function leaveStaging(dbName: string, from: Dump, complete: boolean): Promise<void> {
  const db = await openDB(stagingName(dbName), 1, {
    upgrade(raw) {
      raw.createObjectStore('entries', { keyPath: 'path' });
      raw.createObjectStore('bodies');
      raw.createObjectStore('journal', { keyPath: 'id' });
      raw.createObjectStore('sync', { keyPath: ['mount', 'path'] });
      raw.createObjectStore('state');
    },
  });
  const tx = db.transaction([...STORES, 'state'], 'readwrite');
  for (const store of STORES) {
    for (const [key, value] of from.records[store]) {
      if (store === 'bodies') void tx.objectStore(store).put(value, key as number);
      else void tx.objectStore(store).put(value as never);
    }
  }
  if (complete) void tx.objectStore('state').put({ nextBody: 1 }, 'complete');
  await tx.done;
  db.close();
}

describe('a compaction cut short by a closed page', () => {
  it('is finished by the next open when the old database was already deleted', async () => {
    const dbName = freshDbName('compact-cut');
    const tool = await filledMemory(dbName);
    const before = await dump(dbName);
    tool.close();
    await leaveStaging(dbName, before, true);
    await new Promise<void>((resolve, reject) => {
      const req = indexedDB.deleteDatabase(dbName);
      req.onsuccess = () => resolve();
      req.onerror = () => reject(req.error);
    });
    const reopened = await open({ dbName });
    expect(await reopened.read('/memories/a.md')).toBe('ALPHA\n');
    expect(await dump(dbName)).toEqual(before);
    expect(await exists(stagingName(dbName))).toBe(false);
  });

  it('is finished by the next open when the old database is still there, keeping what the copy holds', async () => {
    const dbName = freshDbName('compact-cut');
    const tool = await filledMemory(dbName);
    const before = await dump(dbName);
    tool.close();
    await leaveStaging(dbName, before, true);
    const reopened = await open({ dbName });
    expect(await dump(dbName)).toEqual(before);
    expect(await reopened.history()).toHaveLength(6);
    expect(await exists(stagingName(dbName))).toBe(false);
  });

  it('is dropped by the next open when the copy was not complete, the memory as it was', async () => {
    const dbName = freshDbName('compact-cut');
    const tool = await filledMemory(dbName);
    const before = await dump(dbName);
    tool.close();
    // A copy of an older state, never completed: it must not replace anything.
    await leaveStaging(dbName, { version: DB_VERSION, records: { entries: [], bodies: [], journal: [], sync: [] } }, false);
    const reopened = await open({ dbName });
    expect(await dump(dbName)).toEqual(before);
    expect(await reopened.read('/memories/kept/b.md')).toBe('beta\n');
    expect(await exists(stagingName(dbName))).toBe(false);
  });
});
