// MemoryStore: one transaction per call, rollback on a throw, storage errors in words, and reconnecting when
// the connection goes away (another tab deleting or upgrading the database).

import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDB, unwrap } from 'idb';
import { IndexedDBMemoryTool, isMemoryToolError } from '../../src/index.js';
import { MemoryStore } from '../../src/storage/store.js';
import { toMemoryError } from '../../src/storage/store-errors.js';
import { DB_VERSION } from '../../src/storage/schema.js';
import { upgradeMemoryDb } from '../../src/storage/upgrade.js';
import type { MemorySchema } from '../../src/storage/schema.js';
import { freshDbName, toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { exportedSnapshot } from '../helpers/tool-calls.js';

const opened: Array<{ close(): void }> = [];
afterEach(() => {
  for (const item of opened.splice(0)) item.close();
});
const freshName = () => freshDbName('store');
const openTool = toolsClosedAfterEach('store');

describe('MemoryStore', () => {
  it('commits what the body wrote and returns its value', async () => {
    const store = await MemoryStore.open(freshName());
    opened.push(store);
    const value = await store.run('readwrite', async (tx) => {
      await tx.objectStore('bodies').put('kept', 7);
      return 'done';
    });
    expect(value).toBe('done');
    expect(await store.run('readonly', (tx) => tx.objectStore('bodies').get(7))).toBe('kept');
  });

  it('rolls back every write of a body that throws', async () => {
    const store = await MemoryStore.open(freshName());
    opened.push(store);
    const failing = store.run('readwrite', async (tx) => {
      await tx.objectStore('entries').put({ path: '/memories/x', parent: '/memories', kind: 'folder', size: 0, createdAt: 0, updatedAt: 0 });
      await tx.objectStore('bodies').add('half-written');
      throw new Error('refused after writing');
    });
    await expect(failing).rejects.toMatchObject({ code: 'storage' });
    expect(await store.run('readonly', (tx) => tx.objectStore('entries').count())).toBe(0);
    expect(await store.run('readonly', (tx) => tx.objectStore('bodies').count())).toBe(0);
  });

  it('reports a write nothing waited for that failed while the body went on, and rolls back the rest', async () => {
    const store = await MemoryStore.open(freshName());
    opened.push(store);
    await store.run('readwrite', (tx) => tx.objectStore('bodies').put('first', 1));
    const failing = store.run('readwrite', async (tx) => {
      const bodies = unwrap(tx).objectStore('bodies');
      bodies.put('second', 2);
      // Taken: this fails and aborts the transaction, with no one listening to it.
      bodies.add('clash', 1);
      // The body is still waiting for a later request of its own when that happens.
      await new Promise((resolve, reject) => {
        const later = bodies.get(2);
        later.onsuccess = resolve;
        later.onerror = () => reject(later.error);
      });
    });
    // Vitest fails the run on an unhandled rejection: the abort surfaces here only, named by the write that failed
    // (not by the later request it failed).
    await expect(failing).rejects.toMatchObject({
      code: 'storage',
      message: expect.stringMatching(/^The memory storage failed \(ConstraintError: .*\)\. Nothing was written\.$/u) as unknown,
    });
    expect(await store.run('readonly', (tx) => tx.objectStore('bodies').getAllKeys())).toEqual([1]);
  });

  it('fails a body that writes after its transaction committed under it as storage, whatever name the engine gives', async () => {
    // The write's error differs by engine: TransactionInactiveError in WebKit, InvalidStateError in Chromium, Firefox
    // and fake-indexeddb. Both are one code, and the store goes on working.
    const store = await MemoryStore.open(freshName());
    opened.push(store);
    const late = store.run('readwrite', async (tx) => {
      // Awaiting anything but a request of `tx` lets it commit (run's contract forbids this).
      await new Promise((resolve) => setTimeout(resolve, 20));
      await tx.objectStore('bodies').put('late', 1);
    });
    await expect(late).rejects.toMatchObject({
      code: 'storage',
      message: expect.stringMatching(/^The memory storage failed \((TransactionInactiveError|InvalidStateError): .*\)\. Nothing was written\.$/su) as unknown,
    });
    expect(await store.run('readonly', (tx) => tx.objectStore('bodies').count())).toBe(0);
  });

  it('gives TransactionInactiveError and InvalidStateError the same code', () => {
    for (const name of ['TransactionInactiveError', 'InvalidStateError']) {
      expect(toMemoryError(new DOMException('late', name))).toMatchObject({ code: 'storage' });
    }
  });

  it('opens one fresh connection for two calls that both find theirs closed, and keeps using it', async () => {
    // Every connection the store opens, in order.
    const connections: IDBDatabase[] = [];
    const realOpen = IDBFactory.prototype.open;
    const spy = vi.spyOn(IDBFactory.prototype, 'open').mockImplementation(function (this: IDBFactory, ...args) {
      const opening = realOpen.apply(this, args);
      opening.addEventListener('success', () => connections.push(opening.result));
      return opening;
    });
    try {
      const store = await MemoryStore.open(freshName());
      opened.push(store);
      // The browser closes the connection under the store (as Safari does when idle): both calls find it closed.
      connections[0]?.close();
      const count = () => store.run('readonly', (tx) => tx.objectStore('entries').count());
      expect(await Promise.all([count(), count()])).toEqual([0, 0]);
      expect(await count()).toBe(0);
      // One fresh connection, not one each (the second would drop the first's, still open, and leak it).
      expect(connections).toHaveLength(2);
    } finally {
      spy.mockRestore();
    }
  });

  it('says plainly that there is no IndexedDB where there is none (a server rendering the page)', async () => {
    vi.stubGlobal('indexedDB', undefined);
    try {
      await expect(IndexedDBMemoryTool.init({ dbName: freshName() })).rejects.toMatchObject({
        code: 'storage',
        message: 'The memory storage failed (IndexedDB is not available here (a server, or a browser without it)). Nothing was written.',
      });
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('reopens the connection after another tab deletes the database', async () => {
    const name = freshName();
    const tool = await openTool({ dbName: name });
    await tool.run({ command: 'create', path: '/memories/a.md', file_text: 'x' });
    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.deleteDatabase(name);
      request.onsuccess = () => resolve();
      request.onerror = () => reject(request.error);
      request.onblocked = () => reject(new Error('blocked: the tool did not step aside'));
    });
    expect(await tool.run({ command: 'view', path: '/memories/a.md' })).toMatchObject({ is_error: true });
    expect(await tool.run({ command: 'create', path: '/memories/b.md', file_text: 'y' })).toEqual({
      content: 'File created successfully at: /memories/b.md',
      is_error: false,
    });
  });

  it('steps aside for a newer schema opened elsewhere instead of blocking it', async () => {
    const name = freshName();
    const tool = await openTool({ dbName: name });
    let blocked = false;
    const newer = await openDB(name, 99, { blocked: () => (blocked = true) });
    opened.push(newer);
    expect(blocked).toBe(false);
    expect(newer.version).toBe(99);
    const result = await tool.run({ command: 'view', path: '/memories' });
    expect(result.is_error).toBe(true);
    expect(result.content).toMatch(/^Error: The memory storage failed \(VersionError: .*\)\. Nothing was written\.$/);
  });
});

describe('an older tab that does not let go', () => {
  it('fails the open with a clear error instead of waiting forever, and opens once it has closed', async () => {
    const name = freshName();
    // An "old tab": version 1 open, no versionchange handler, so it never closes by itself.
    const old = await openDB<MemorySchema>(name, 1, { upgrade: upgradeMemoryDb });
    await expect(MemoryStore.open(name, { blockedWaitMs: 200 })).rejects.toMatchObject({
      code: 'storage',
      message: expect.stringMatching(/^The memory is held open by another tab of this site running an older version/),
    });
    old.close();
    const store = await MemoryStore.open(name);
    opened.push(store);
    expect(await store.run('readonly', (tx) => tx.objectStore('entries').count())).toBe(0);
  });
});

describe('a delete by another tab that an older tab blocks', () => {
  it('fails a command (and an open) queued behind it with the clear error instead of waiting forever, and recovers', async () => {
    const name = freshName();
    const store = await MemoryStore.open(name, { blockedWaitMs: 200 });
    opened.push(store);
    await store.run('readwrite', (tx) => tx.objectStore('bodies').put('kept', 1));
    // An "old tab" with the current version open and no versionchange handler: it never closes by itself.
    const old = await openDB<MemorySchema>(name, DB_VERSION);
    // Another tab deletes the database: the store steps aside, the old tab blocks the delete.
    const deleting = indexedDB.deleteDatabase(name);
    const deleted = new Promise<void>((resolve, reject) => {
      deleting.onsuccess = () => resolve();
      deleting.onerror = () => reject(deleting.error);
    });
    await new Promise<void>((resolve) => (deleting.onblocked = () => resolve()));
    // The store's reopen waits behind the delete, and hears no `blocked` of its own.
    const outcome = (promise: Promise<unknown>) =>
      Promise.race([promise.then(() => 'answered', (error: unknown) => error), new Promise((resolve) => setTimeout(() => resolve('still waiting'), 2000))]);
    // It hears no `blocked` of its own, so it waits longer and says the browser did not answer (src/storage/store.ts).
    const blocked = { code: 'storage', message: expect.stringMatching(/^The browser's storage did not answer .* another tab is deleting or upgrading the memory/) as unknown };
    expect(await outcome(store.run('readonly', (tx) => tx.objectStore('bodies').count()))).toMatchObject(blocked);
    expect(await outcome(MemoryStore.open(name, { blockedWaitMs: 200 }))).toMatchObject(blocked);
    old.close();
    await deleted;
    // Recovers: a later command works. The opens given up above still run first, one of them an upgrade that may
    // outlast this store's 200 ms wait on a busy machine, so a command may be told "blocked" until they are through.
    let count: unknown;
    for (let tries = 0; count === undefined; tries++) {
      count = await store.run('readonly', (tx) => tx.objectStore('bodies').count()).catch((error: unknown) => {
        const waiting = ['The memory is held open', "The browser's storage did not answer"].some((start) => error instanceof Error && error.message.startsWith(start));
        if (tries >= 100 || !isMemoryToolError(error) || !waiting) throw error;
        return undefined;
      });
    }
    expect(count).toBe(0);
  }, 300_000);
});

describe('a quota failure', () => {
  it('leaves the memory as it was and tells Claude why', async () => {
    const tool = await openTool({ dbName: freshName() });
    await tool.run({ command: 'create', path: '/memories/a.md', file_text: 'before' });
    const before = await exportedSnapshot(tool);
    const history = await tool.history();
    // The browser refuses the body write, as it does when the origin is over its quota.
    const realAdd = IDBObjectStore.prototype.add;
    const spy = vi.spyOn(IDBObjectStore.prototype, 'add').mockImplementation(function (this: IDBObjectStore, ...args) {
      if (this.name === 'bodies') throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return realAdd.apply(this, args);
    });
    try {
      for (const input of [
        { command: 'create', path: '/memories/new/deep/b.md', file_text: 'x' },
        { command: 'create', path: '/memories/a.md', file_text: 'overwrite' },
        { command: 'str_replace', path: '/memories/a.md', old_str: 'before', new_str: 'after' },
        { command: 'insert', path: '/memories/a.md', insert_line: 0, insert_text: 'x' },
      ]) {
        expect(await tool.run(input)).toEqual({
          is_error: true,
          code: 'storage',
          content: 'Error: The browser refused to store this change because its storage quota for this site is full. Nothing was written.',
        });
      }
    } finally {
      spy.mockRestore();
    }
    expect(await exportedSnapshot(tool)).toBe(before);
    expect(await tool.history()).toEqual(history);
    expect((await tool.run({ command: 'view', path: '/memories' })).content).not.toContain('new');
  });
});

describe('toMemoryError', () => {
  it('words a quota failure for Claude and keeps the cause', () => {
    const cause = new DOMException('full', 'QuotaExceededError');
    const error = toMemoryError(cause);
    expect(isMemoryToolError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'storage', cause });
    expect(error.message).toBe(
      'The browser refused to store this change because its storage quota for this site is full. Nothing was written.',
    );
  });

  it('passes a MemoryToolError through unchanged', () => {
    const original = toMemoryError(new Error('x'));
    expect(toMemoryError(original)).toBe(original);
  });
});
