// The schema: what a new database holds, and the upgrade from version 1 keeping every file.

import { describe, expect, it } from 'vitest';
import { openDB } from 'idb';
import { IndexedDBMemoryTool } from '../src/index.js';
import { DB_VERSION, upgradeMemoryDb } from '../src/schema.js';
import type { MemorySchema } from '../src/schema.js';

describe('upgradeMemoryDb', () => {
  it('creates entries (by path; parent and bodyId indexes), bodies, meta and journal from nothing', async () => {
    const db = await openDB<MemorySchema>(`schema-${crypto.randomUUID()}`, DB_VERSION, { upgrade: upgradeMemoryDb });
    try {
      expect([...db.objectStoreNames].sort()).toEqual(['bodies', 'entries', 'journal', 'meta']);
      const tx = db.transaction(['entries', 'bodies', 'journal']);
      expect(tx.objectStore('entries').keyPath).toBe('path');
      expect([...tx.objectStore('entries').indexNames].sort()).toEqual(['bodyId', 'parent']);
      expect(tx.objectStore('bodies').autoIncrement).toBe(true);
      expect(tx.objectStore('journal').index('retains').multiEntry).toBe(true);
      await tx.done;
    } finally {
      db.close();
    }
  });

  it('upgrades a version 1 memory to the current version, keeping its files and starting its history', async () => {
    const name = `schema-${crypto.randomUUID()}`;
    const v1 = await openDB<MemorySchema>(name, 1, { upgrade: upgradeMemoryDb });
    expect([...v1.objectStoreNames].sort()).toEqual(['bodies', 'entries', 'meta']);
    const tx = v1.transaction(['entries', 'bodies', 'meta'], 'readwrite');
    const bodyId = await tx.objectStore('bodies').add('written by version 1');
    await tx.objectStore('entries').put({ path: '/memories/old.md', parent: '/memories', kind: 'file', size: 20, bodyId, createdAt: 1, updatedAt: 1 });
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
});
