// A connection the browser closes under a command (Safari's lost connection, a site-data clear): the command's
// transaction aborted, so nothing of it was written, and MemoryStore.run runs it once more on a fresh connection
// (src/storage/README.md, "Connections"). Anything else that aborts a transaction is not run again.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDB, unwrap } from 'idb';
import { IndexedDBMemoryTool, isMemoryToolError } from '../../src/index.js';
import { MemoryToolError } from '../../src/core/errors.js';
import { MemoryStore } from '../../src/storage/store.js';
import type { MemoryTx } from '../../src/storage/store.js';
import { unpackTotals } from '../../src/storage/schema.js';
import type { JournalRecord } from '../../src/storage/schema.js';
import { CLEAR_SITE_DATA_PATH } from '../engines/clear-site-data.js';
import { engine } from '../helpers/engine.js';
import { freshDbName } from '../helpers/fresh-tool.js';

const opened: Array<{ close(): void }> = [];
afterEach(() => {
  for (const item of opened.splice(0)) item.close();
});

async function openStore(): Promise<MemoryStore> {
  const store = await MemoryStore.open(freshDbName('lost'));
  opened.push(store);
  return store;
}

/** What the engine does to a transaction when it drops the connection: marks the connection closing, then aborts. */
function dropConnection(tx: MemoryTx<'readwrite'>): void {
  const plain = unwrap(tx);
  plain.db.close();
  plain.abort();
}

const countBodies = (store: MemoryStore) => store.run('readonly', (tx) => tx.objectStore('bodies').count());

describe('MemoryStore.run when the connection is lost', () => {
  it('runs a transaction aborted by its connection closing once more, on a fresh connection, and writes once', async () => {
    const store = await openStore();
    const connections: IDBDatabase[] = [];
    const result = await store.run('readwrite', async (tx) => {
      connections.push(unwrap(tx).db);
      // `add` refuses a key that exists: had the first run's write stayed, the second would fail.
      const added = tx.objectStore('bodies').add('written once', 1);
      if (connections.length === 1) dropConnection(tx);
      await added;
      return `run ${connections.length}`;
    });
    expect(result).toBe('run 2');
    expect(connections[1]).not.toBe(connections[0]);
    expect(await store.run('readonly', (tx) => tx.objectStore('bodies').getAll())).toEqual(['written once']);
  });

  it('does not run again a transaction that aborted while its connection stayed open', async () => {
    const store = await openStore();
    let runs = 0;
    const failing = store.run('readwrite', async (tx) => {
      runs++;
      const added = tx.objectStore('bodies').add('never kept', 1);
      unwrap(tx).abort();
      await added;
    });
    await expect(failing).rejects.toMatchObject({ code: 'storage' });
    expect(runs).toBe(1);
    expect(await countBodies(store)).toBe(0);
  });

  it('lets a refusal stand even when the connection closed under it', async () => {
    const store = await openStore();
    let runs = 0;
    const refused = store.run('readwrite', async (tx) => {
      runs++;
      unwrap(tx).db.close();
      throw new MemoryToolError('not_found', 'refused by the command');
    });
    await expect(refused).rejects.toMatchObject({ code: 'not_found', message: 'refused by the command' });
    expect(runs).toBe(1);
  });

  it('runs once more only: a second loss is a storage error, and nothing was written', async () => {
    const store = await openStore();
    let runs = 0;
    const failing = store.run('readwrite', async (tx) => {
      runs++;
      const added = tx.objectStore('bodies').add(`run ${runs}`);
      dropConnection(tx);
      await added;
    });
    const error: unknown = await failing.catch((caught: unknown) => caught);
    expect(isMemoryToolError(error) && error.code).toBe('storage');
    expect(runs).toBe(2);
    expect(await countBodies(store)).toBe(0);
  });

  it('reruns a read the same way', async () => {
    const store = await openStore();
    await store.run('readwrite', (tx) => tx.objectStore('bodies').put('kept', 3));
    let runs = 0;
    const value = await store.run('readonly', async (tx) => {
      runs++;
      const read = tx.objectStore('bodies').get(3);
      if (runs === 1) {
        unwrap(tx).db.close();
        unwrap(tx).abort();
      }
      return read;
    });
    expect(value).toBe('kept');
    expect(runs).toBe(2);
  });
});

describe('a command when the browser force-closes the connection', () => {
  it.skipIf(engine === 'node')(
    `answers as if nothing happened, its write kept once, in one history entry${engine === 'node' ? ' (skipped in Node: no browser to clear the site data, and fake-indexeddb has no forced close)' : ''}`,
    async () => {
      const dbName = freshDbName('forced-close');
      const tool = await IndexedDBMemoryTool.init({ dbName });
      opened.push(tool);
      // Another connection keeps a transaction on the same store busy, so the command's waits behind it, queued and
      // certainly not committed when the site data is cleared.
      const other = await openDB(dbName);
      const busy = unwrap(other).transaction(['entries'], 'readwrite');
      const spin = (): void => {
        try {
          busy.objectStore('entries').get('/memories').onsuccess = spin;
        } catch (error) {
          // The clear force-closed the connection between this read's success and the next: the spin is over.
          if (!(error instanceof DOMException && error.name === 'InvalidStateError')) throw error;
        }
      };
      spin();
      busy.onerror = (event) => event.preventDefault();

      // The command's readwrite transactions, seen as the tool creates them: the first, and the rerun's.
      const writes: IDBTransaction[] = [];
      let begun!: () => void;
      const queued = new Promise<void>((resolve) => (begun = resolve));
      const transaction = IDBDatabase.prototype.transaction;
      const spy = vi.spyOn(IDBDatabase.prototype, 'transaction').mockImplementation(function (
        this: IDBDatabase,
        ...args: Parameters<IDBDatabase['transaction']>
      ) {
        const tx = transaction.apply(this, args);
        if (args[1] === 'readwrite') {
          writes.push(tx);
          begun();
        }
        return tx;
      });
      try {
        // `run` never rejects: a failure is reported when awaited below, not as an unhandled rejection meanwhile.
        const created = tool.run({ command: 'create', path: '/memories/kept.md', file_text: 'written once\n' });
        await queued;
        const cleared = await fetch(CLEAR_SITE_DATA_PATH, { cache: 'no-store' });
        expect(cleared.status).toBe(200);
        expect(await created).toEqual({ content: 'File created successfully at: /memories/kept.md', is_error: false });
      } finally {
        spy.mockRestore();
      }
      expect(writes).toHaveLength(2);
      expect(writes[1]!.db).not.toBe(writes[0]!.db);
      expect(await tool.view({ command: 'view', path: '/memories/kept.md' })).toContain('written once');
      const history = await tool.history();
      expect(history.map((entry) => [entry.command, entry.paths])).toEqual([['create', ['/memories/kept.md']]]);
      // The totals count the file once (the site data clear deleted everything before it).
      const journal = await openDB(dbName);
      const records = (await journal.getAll('journal')) as JournalRecord[];
      journal.close();
      expect(records).toHaveLength(1);
      expect(unpackTotals(records[0]!.totals!)).toMatchObject({ files: 1, bytes: 'written once\n'.length });
    },
  );
});
