// The schema: what a new database holds, and that the upgrade path starts from version 0.

import { describe, expect, it } from 'vitest';
import { openDB } from 'idb';
import { DB_VERSION, upgradeMemoryDb } from '../src/schema.js';
import type { MemorySchema } from '../src/schema.js';

describe('upgradeMemoryDb', () => {
  it('creates entries (keyed by path, indexed by parent), bodies and meta from nothing', async () => {
    const db = await openDB<MemorySchema>(`schema-${crypto.randomUUID()}`, DB_VERSION, { upgrade: upgradeMemoryDb });
    try {
      expect([...db.objectStoreNames].sort()).toEqual(['bodies', 'entries', 'meta']);
      const tx = db.transaction(['entries', 'bodies']);
      expect(tx.objectStore('entries').keyPath).toBe('path');
      expect([...tx.objectStore('entries').indexNames]).toEqual(['parent']);
      expect(tx.objectStore('bodies').autoIncrement).toBe(true);
      await tx.done;
    } finally {
      db.close();
    }
  });
});
