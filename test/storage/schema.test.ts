// The schema: what a new database holds, and the upgrades from versions 1 to 4 keeping every file and total.

import { describe, expect, it } from 'vitest';
import { openDB } from 'idb';
import { IndexedDBMemoryTool } from '../../src/index.js';
import { DB_VERSION } from '../../src/storage/schema.js';
import { upgradeMemoryDb } from '../../src/storage/upgrade.js';
import { readTotals } from '../../src/storage/optimistic-totals.js';
import type { MemorySchema } from '../../src/storage/schema.js';
import { freshDbName } from '../helpers/fresh-tool.js';

/** A database opened at an older version, untyped: its stores (`meta`) are not the current schema's. */
const openLegacy = (name: string, version: number) => openDB(name, version, { upgrade: upgradeMemoryDb as never });

/** A hidden totals record as versions 3 and 4 wrote it, less its key and totals. */
const HIDDEN = { hidden: true, at: 0, actor: '', command: '', paths: [], ops: [], retains: [], bytes: 0, undoable: false };

/** Every store of the current version, sorted. */
const CURRENT_STORES = ['bodies', 'entries', 'journal', 'searchDelta', 'searchDocs', 'searchState', 'searchTerms', 'sync'];

describe('upgradeMemoryDb', () => {
  it('creates entries (by path; parent and bodyId indexes), bodies and journal (retains index) from nothing', async () => {
    const db = await openDB<MemorySchema>(freshDbName('schema'), DB_VERSION, { upgrade: upgradeMemoryDb });
    try {
      expect([...db.objectStoreNames].sort()).toEqual(CURRENT_STORES);
      const tx = db.transaction(['entries', 'bodies', 'journal']);
      expect(tx.objectStore('entries').keyPath).toBe('path');
      expect([...tx.objectStore('entries').indexNames].sort()).toEqual(['bodyId', 'parent']);
      expect(tx.objectStore('bodies').autoIncrement).toBe(true);
      expect(tx.objectStore('journal').index('retains').multiEntry).toBe(true);
      expect([...tx.objectStore('journal').indexNames]).toEqual(['retains']);
      // A new memory has no totals record: empty totals are the default.
      expect(await tx.objectStore('journal').count()).toBe(0);
      await tx.done;
    } finally {
      db.close();
    }
  });

  it('upgrades a version 1 memory to the current version, keeping its files and starting its history', async () => {
    const name = freshDbName('schema');
    const v1 = await openLegacy(name, 1);
    expect([...v1.objectStoreNames].sort()).toEqual(['bodies', 'entries', 'meta']);
    const tx = v1.transaction(['entries', 'bodies', 'meta'], 'readwrite');
    const bodyId = await tx.objectStore('bodies').add('written by version 1');
    await tx.objectStore('entries').put({ path: '/memories/old.md', parent: '/memories', kind: 'file', size: 20, bodyId, createdAt: 1, updatedAt: 1 });
    // Version 1 kept only the totals.
    await tx.objectStore('meta').put({ bytes: 20, files: 1 }, 'usage');
    await tx.done;
    v1.close();

    const tool = await IndexedDBMemoryTool.init({ dbName: name });
    try {
      expect((await tool.run({ command: 'view', path: '/memories/old.md' })).content).toContain('written by version 1');
      await tool.run({ command: 'str_replace', path: '/memories/old.md', old_str: 'version 1', new_str: 'version 2' });
      await tool.undo();
      expect((await tool.run({ command: 'view', path: '/memories/old.md' })).content).toContain('written by version 1');
    } finally {
      tool.close();
    }
  });

  it('moves the version 2 totals (usage and journal records, next body id) into the journal and drops meta (version 3)', async () => {
    const name = freshDbName('schema');
    const v2 = await openLegacy(name, 2);
    const tx = v2.transaction(['entries', 'bodies', 'meta', 'journal'], 'readwrite');
    const bodies = tx.objectStore('bodies');
    const live = await bodies.add('the file now');
    const old = (await bodies.add('the file before')) as number;
    await tx.objectStore('entries').put({ path: '/memories/a.md', parent: '/memories', kind: 'file', size: 12, bodyId: live, createdAt: 1, updatedAt: 2 });
    const before = { bodyId: old, size: 15, createdAt: 1, updatedAt: 1 };
    const after = { bodyId: live, size: 12, createdAt: 1, updatedAt: 2 };
    await tx.objectStore('journal').add({
      at: 2, actor: 'claude', command: 'create', paths: ['/memories/a.md'],
      ops: [{ type: 'file', path: '/memories/a.md', before, after }], retains: [old], bytes: 15, undoable: true,
    });
    // An early version 2 memory: no `nextBody` yet, so the upgrade takes it from the last body's key.
    await tx.objectStore('meta').put({ bytes: 12, files: 1 }, 'usage');
    await tx.objectStore('meta').put({ bytes: 15, files: 1 }, 'journal');
    await tx.done;
    v2.close();

    const v3 = await openDB<MemorySchema>(name, DB_VERSION, { upgrade: upgradeMemoryDb });
    try {
      expect([...v3.objectStoreNames].sort()).toEqual(CURRENT_STORES);
      const tx = v3.transaction('journal');
      const usage = await readTotals(tx as never);
      expect(usage).toMatchObject({ seq: 1, bytes: 12, files: 1, nextBody: old + 1, journalBytes: 15, journalEntries: 1 });
      // The totals record is not a change, and comes after the change it counts: the newest.
      expect(await tx.store.getAllKeys()).toEqual([1, 2]);
      expect(usage.holder).toBe(2);
      expect((await tx.store.get(2))?.hidden).toBe(true);
    } finally {
      v3.close();
    }
    // The journal still works on the folded totals: the old change is undone, and new bodies do not collide.
    const tool = await IndexedDBMemoryTool.init({ dbName: name });
    try {
      await tool.undo();
      expect((await tool.run({ command: 'view', path: '/memories/a.md' })).content).toContain('the file before');
      await tool.run({ command: 'create', path: '/memories/b.md', file_text: 'new' });
      expect((await tool.run({ command: 'view', path: '/memories/a.md' })).content).toContain('the file before');
      expect((await tool.history()).map((entry) => entry.command)).toEqual(['create', 'undo', 'create']);
    } finally {
      tool.close();
    }
  });

  it('moves the newest version 3 totals to the journal end and drops the totals index (version 4)', async () => {
    const name = freshDbName('schema');
    const v3 = await openLegacy(name, 3);
    const tx = v3.transaction(['entries', 'bodies', 'journal'], 'readwrite');
    const journal = tx.objectStore('journal');
    expect([...journal.indexNames].sort()).toEqual(['retains', 'totals']);
    const bodyId = await tx.objectStore('bodies').add('b');
    await tx.objectStore('entries').put({ path: '/memories/b.md', parent: '/memories', kind: 'file', size: 1, bodyId, createdAt: 1, updatedAt: 2 });
    // One change with history on (seq 1), then one with it off: version 3 kept those newer totals at key 0.
    const op = { type: 'file', path: '/memories/a.md', before: null, after: null };
    const entry = { at: 1, actor: 'claude', command: 'create', paths: ['/memories/a.md'], ops: [op], retains: [], bytes: 0, undoable: true };
    await journal.add({ ...entry, totals: [1, 1, 1, 2, 0, 1] });
    await journal.put({ ...HIDDEN, id: 0, totals: [2, 1, 1, 3, 0, 1] });
    await tx.done;
    v3.close();

    const v4 = await openDB<MemorySchema>(name, DB_VERSION, { upgrade: upgradeMemoryDb });
    try {
      const tx = v4.transaction('journal');
      expect([...tx.store.indexNames]).toEqual(['retains']);
      const usage = await readTotals(tx as never);
      expect(usage).toMatchObject({ seq: 2, bytes: 1, files: 1, nextBody: 3, journalBytes: 0, journalEntries: 1 });
      // The old key-0 record is gone; the change stays, followed by the totals.
      expect(await tx.store.getAllKeys()).toEqual([1, usage.holder]);
      expect(usage.holder).toBeGreaterThan(1);
    } finally {
      v4.close();
    }
    const tool = await IndexedDBMemoryTool.init({ dbName: name });
    try {
      expect((await tool.history()).map((e) => e.command)).toEqual(['create']);
      await tool.run({ command: 'create', path: '/memories/c.md', file_text: 'cc' });
      expect((await tool.run({ command: 'view', path: '/memories' })).content).toContain('/memories/c.md');
    } finally {
      tool.close();
    }
    const after = await openDB<MemorySchema>(name, DB_VERSION);
    try {
      // The new write read the upgraded totals: one more file, two more bytes, one more change.
      expect(await readTotals(after.transaction('journal') as never)).toMatchObject({ seq: 3, bytes: 3, files: 2, journalEntries: 2 });
    } finally {
      after.close();
    }
  });

  it('keeps the version 3 totals where they are when the newest change carries them, dropping a stale key-0 record', async () => {
    const name = freshDbName('schema');
    const v3 = await openLegacy(name, 3);
    const tx = v3.transaction('journal', 'readwrite');
    await tx.store.put({ ...HIDDEN, id: 0, totals: [1, 0, 0, 1, 0, 0] });
    const entry = { at: 1, actor: 'claude', command: 'delete', paths: ['/memories/x'], ops: [], retains: [], bytes: 0, undoable: true };
    await tx.store.add({ ...entry, totals: [2, 0, 0, 1, 0, 1] });
    await tx.done;
    v3.close();

    const v4 = await openDB<MemorySchema>(name, DB_VERSION, { upgrade: upgradeMemoryDb });
    try {
      const tx = v4.transaction('journal');
      expect(await tx.store.getAllKeys()).toEqual([1]);
      const usage = await readTotals(tx as never);
      expect(usage).toMatchObject({ seq: 2, journalEntries: 1 });
      expect(usage.holder).toBeUndefined();
    } finally {
      v4.close();
    }
  });

  it('opens a version 4 memory at version 5 as it was, and then replaces its hidden totals instead of rewriting them', async () => {
    const name = freshDbName('schema');
    const v4 = await openLegacy(name, 4);
    const tx = v4.transaction(['entries', 'bodies', 'journal'], 'readwrite');
    const bodyId = (await tx.objectStore('bodies').add('kept')) as number;
    await tx.objectStore('entries').put({ path: '/memories/kept.md', parent: '/memories', kind: 'file', size: 4, bodyId, createdAt: 1, updatedAt: 1 });
    // Version 4 with no history: one hidden record, last, rewritten in place by every write.
    await tx.objectStore('journal').put({ ...HIDDEN, id: 7, totals: [5, 4, 1, bodyId + 1, 0, 0] });
    await tx.done;
    v4.close();

    const tool = await IndexedDBMemoryTool.init({ dbName: name, history: false });
    try {
      await tool.create({ command: 'create', path: '/memories/new.md', file_text: 'ab' });
      await tool.create({ command: 'create', path: '/memories/newer.md', file_text: 'c' });
      expect((await tool.view({ command: 'view', path: '/memories/kept.md' })).endsWith('\tkept')).toBe(true);
    } finally {
      tool.close();
    }
    const v5 = await openDB<MemorySchema>(name, DB_VERSION);
    try {
      expect(v5.version).toBe(DB_VERSION);
      const tx = v5.transaction('journal');
      // Each write added the totals after every other record and dropped the one it read them from.
      const keys = await tx.store.getAllKeys();
      expect(keys).toHaveLength(1);
      expect(keys[0]).toBeGreaterThan(7);
      expect(await readTotals(tx as never)).toMatchObject({ seq: 7, bytes: 7, files: 3, holder: keys[0] });
    } finally {
      v5.close();
    }
  });

  it('keeps code of version 4, which rewrote the totals in place, off a memory opened at version 5', async () => {
    const name = freshDbName('schema');
    (await IndexedDBMemoryTool.init({ dbName: name })).close();
    await expect(openLegacy(name, 4)).rejects.toMatchObject({ name: 'VersionError' });
  });

  it.each([0, 1, 2])('never makes, upgrading from version %i, a store or index a later step removes', async (from) => {
    const name = freshDbName('schema');
    if (from > 0) (await openLegacy(name, from)).close();
    const made: string[] = [];
    const stores = IDBDatabase.prototype.createObjectStore;
    const indexes = IDBObjectStore.prototype.createIndex;
    IDBDatabase.prototype.createObjectStore = function (this: IDBDatabase, ...args: Parameters<typeof stores>) {
      made.push(args[0]);
      return stores.apply(this, args);
    };
    IDBObjectStore.prototype.createIndex = function (this: IDBObjectStore, ...args: Parameters<typeof indexes>) {
      made.push(`${this.name}.${args[0]}`);
      return indexes.apply(this, args);
    };
    try {
      (await openDB<MemorySchema>(name, DB_VERSION, { upgrade: upgradeMemoryDb })).close();
    } finally {
      IDBDatabase.prototype.createObjectStore = stores;
      IDBObjectStore.prototype.createIndex = indexes;
    }
    const all = ['entries', 'entries.parent', 'bodies', 'journal', 'journal.retains', 'entries.bodyId'];
    // What each step adds (version 1 the first three, version 2 the next three, version 6 `sync`, version 7 the search
    // index's four), never `meta` or `totals`.
    const search = ['searchDocs', 'searchDelta', 'searchTerms', 'searchState'];
    expect(made.sort()).toEqual([...all.slice(from === 0 ? 0 : from === 1 ? 3 : 6), 'sync', ...search].sort());
  });

  it('adds the search index stores, empty, to a version 6 memory and keeps its files', async () => {
    const name = freshDbName('schema');
    const v6 = await openDB<MemorySchema>(name, 6, {
      upgrade: (db, oldVersion, newVersion, transaction) => upgradeMemoryDb(db, oldVersion, newVersion, transaction),
    });
    await v6.put('bodies', 'kept text', 1);
    v6.close();
    const v7 = await openDB<MemorySchema>(name, DB_VERSION, { upgrade: upgradeMemoryDb });
    try {
      expect([...v7.objectStoreNames].sort()).toEqual(CURRENT_STORES);
      expect(await v7.get('bodies', 1)).toBe('kept text');
      for (const store of ['searchDocs', 'searchDelta', 'searchTerms', 'searchState'] as const) {
        expect(await v7.count(store)).toBe(0);
      }
    } finally {
      v7.close();
    }
  });

  it('adds the sync baseline store to a version 5 memory and keeps its files', async () => {
    const name = freshDbName('schema');
    const v5 = await openDB<MemorySchema>(name, 5, {
      upgrade: (db, oldVersion, newVersion, transaction) => upgradeMemoryDb(db, oldVersion, newVersion, transaction),
    });
    expect([...v5.objectStoreNames].sort()).toEqual(['bodies', 'entries', 'journal']);
    v5.close();
    const tool = await IndexedDBMemoryTool.init({ dbName: name });
    try {
      await tool.create({ command: 'create', path: '/memories/a.md', file_text: 'a' });
    } finally {
      tool.close();
    }
    const v6 = await openDB<MemorySchema>(name, DB_VERSION);
    try {
      expect([...v6.objectStoreNames].sort()).toEqual(CURRENT_STORES);
      expect(await v6.count('entries')).toBe(1);
    } finally {
      v6.close();
    }
  });
});
