// An open that IndexedDB does not answer while nothing blocks it (WebKit rolls back a closed tab's transaction for
// 4-12 s first; here another connection's long upgrade): the store waits it out rather than blaming an older tab
// after the blocked wait, and says what it is when even the longer wait runs out (src/storage/store.ts).

import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/storage/store.js';
import { DB_VERSION } from '../../src/storage/schema.js';
import { upgradeMemoryDb } from '../../src/storage/upgrade.js';
import { wrap } from 'idb';
import type { IDBPTransaction } from 'idb';
import type { MemoryDb, MemorySchema, StoreName } from '../../src/storage/schema.js';
import { freshDbName } from '../helpers/fresh-tool.js';

/** Creates `name` in an upgrade kept running (a read after each read) while `going()`; resolves once it has committed. */
function slowUpgrade(name: string, going: () => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(name, DB_VERSION);
    req.onupgradeneeded = (event) => {
      const tx = req.transaction as IDBTransaction;
      upgradeMemoryDb(
        wrap(req.result) as unknown as MemoryDb,
        event.oldVersion,
        DB_VERSION,
        wrap(tx) as unknown as IDBPTransaction<MemorySchema, StoreName[], 'versionchange'>,
      );
      const again = (): void => {
        if (going()) tx.objectStore('bodies').count().onsuccess = again;
      };
      again();
    };
    req.onsuccess = () => {
      req.result.close();
      resolve();
    };
    req.onerror = () => reject(req.error);
  });
}

describe('an open IndexedDB does not answer while nothing blocks it', () => {
  it('is waited out past the blocked wait, and the store then works', async () => {
    const name = freshDbName('stall');
    const began = Date.now();
    // Kept running past the blocked wait (500 ms), and ended well before the longer one (3 s).
    const upgrading = slowUpgrade(name, () => Date.now() - began < 800);
    const store = await MemoryStore.open(name, { blockedWaitMs: 500 });
    try {
      expect(Date.now() - began).toBeGreaterThanOrEqual(500);
      await upgrading;
      expect(await store.run('readonly', (tx) => tx.objectStore('entries').count())).toBe(0);
    } finally {
      store.close();
    }
  });

  it('fails after the longer wait with an error that says the browser did not answer, not that a tab holds it', async () => {
    const name = freshDbName('stall');
    let going = true;
    const upgrading = slowUpgrade(name, () => going);
    await expect(MemoryStore.open(name, { blockedWaitMs: 50 })).rejects.toMatchObject({
      code: 'storage',
      message: expect.stringMatching(/^The browser.s storage did not answer for 0.3 s: it may be still undoing the writes of a tab that closed part-way/) as unknown,
    });
    going = false;
    await upgrading;
  }, 30_000);
});
