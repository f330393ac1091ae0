// The schema: what a new database holds, and the upgrade from version 1 keeping every file.

import { describe, expect, it } from 'vitest';
import { openDB } from 'idb';
import { IndexedDBMemoryTool } from '../src/index.js';
import { DB_VERSION, TOTALS_ID, upgradeMemoryDb } from '../src/schema.js';
import { getUsage } from '../src/commands.js';
import type { MemorySchema } from '../src/schema.js';

/** A database opened at an older version, untyped: its stores (`meta`) are not the current schema's. */
const openLegacy = (name: string, version: number) => openDB(name, version, { upgrade: upgradeMemoryDb as never });

describe('upgradeMemoryDb', () => {
  it('creates entries (by path; parent and bodyId indexes), bodies and journal (retains and totals indexes) from nothing', async () => {
    const db = await openDB<MemorySchema>(`schema-${crypto.randomUUID()}`, DB_VERSION, { upgrade: upgradeMemoryDb });
    try {
      expect([...db.objectStoreNames].sort()).toEqual(['bodies', 'entries', 'journal']);
      const tx = db.transaction(['entries', 'bodies', 'journal']);
      expect(tx.objectStore('entries').keyPath).toBe('path');
      expect([...tx.objectStore('entries').indexNames].sort()).toEqual(['bodyId', 'parent']);
      expect(tx.objectStore('bodies').autoIncrement).toBe(true);
      expect(tx.objectStore('journal').index('retains').multiEntry).toBe(true);
      expect(tx.objectStore('journal').index('totals').keyPath).toBe('totals');
      // A new memory has no totals record: empty totals are the default.
      expect(await tx.objectStore('journal').count()).toBe(0);
      await tx.done;
    } finally {
      db.close();
    }
  });

  it('upgrades a version 1 memory to the current version, keeping its files and starting its history', async () => {
    const name = `schema-${crypto.randomUUID()}`;
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
    const name = `schema-${crypto.randomUUID()}`;
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
      expect([...v3.objectStoreNames].sort()).toEqual(['bodies', 'entries', 'journal']);
      const tx = v3.transaction('journal');
      expect(await getUsage(tx as never)).toEqual({ seq: 1, bytes: 12, files: 1, nextBody: old + 1, journalBytes: 15, journalEntries: 1 });
      // The totals record is not a change.
      expect((await tx.store.get(TOTALS_ID))?.hidden).toBe(true);
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
});
