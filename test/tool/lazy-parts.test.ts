// The parts loaded with import() (src/tool/lazy-parts.ts). One loaded on first use that cannot be loaded: that method
// fails as `unavailable` with what to do, changing nothing, and the six commands go on (test/e2e/tabs.test.ts does it
// for real in Chromium). Node only: browser mode cannot make a module fail to load. The worker entry: worker-entry.test.ts.

import { describe, expect, it, vi } from 'vitest';
import { engine } from '../helpers/engine.js';
import { freshDbName, freshToolEach } from '../helpers/fresh-tool.js';
import { IndexedDBMemoryTool } from '../../src/index.js';
import { MemoryStore } from '../../src/storage/store.js';

const fresh = freshToolEach('lazy-parts');
const { create, read } = fresh;

describe('a part loaded on first use that cannot be loaded', () => {
  // test/e2e/tabs.test.ts does it for real in Chromium, offline.
  it.skipIf(engine !== 'node')('fails that method with an unavailable error saying what to do; the six commands go on (Node only: browser mode cannot make a module fail to load)', async () => {
    await create('/memories/a.md', 'a');
    // As when the page went offline before its first list(): the chunk cannot be fetched.
    vi.doMock('../../src/storage/tree-reads.js', () => {
      throw new TypeError('Failed to fetch dynamically imported module: listing.js');
    });
    try {
      await expect(fresh.tool.list()).rejects.toMatchObject({
        name: 'MemoryToolError',
        code: 'unavailable',
        // The cause's words in the brackets (here vitest's own, wrapping the factory's throw).
        message: expect.stringMatching(/^This part of the memory tool could not be loaded \(.+\): the page may be offline, .*Reload the page while online\. Nothing was changed\.$/) as unknown,
      });
      expect(await create('/memories/b.md', 'b')).toBe('File created successfully at: /memories/b.md');
      expect(await read('/memories/a.md')).toBe('a');
    } finally {
      vi.doUnmock('../../src/storage/tree-reads.js');
    }
    expect((await fresh.tool.list()).map((entry) => entry.path)).toEqual(['/memories/a.md', '/memories/b.md']);
  });

  it.skipIf(engine !== 'node')('loads undo, expiry and forgetting with the code that runs them on first use: unavailable if it cannot load, nothing changed (Node only: browser mode cannot make a module fail to load)', async () => {
    await create('/memories/a.md', 'a');
    const actions = ['undo-action', 'expire-action', 'forget-action'].map((name) => `../../src/tool/${name}.js`);
    for (const path of actions) {
      vi.doMock(path, () => {
        throw new TypeError('Failed to fetch dynamically imported module');
      });
    }
    try {
      for (const call of [
        () => fresh.tool.undo(),
        () => fresh.tool.expire({ olderThan: 0 }),
        () => fresh.tool.forget('/memories/a.md'),
        () => fresh.tool.clearHistory(),
      ]) {
        await expect(call()).rejects.toMatchObject({ code: 'unavailable' });
      }
      expect(await read('/memories/a.md')).toBe('a');
      expect((await fresh.tool.history()).map((entry) => entry.command)).toEqual(['create']);
    } finally {
      for (const path of actions) vi.doUnmock(path);
    }
  });

  it.skipIf(engine !== 'node')('names the real cause in a service worker, which may not import(): the worker entry (Node only: browser mode cannot make a module fail to load)', async () => {
    // What a service worker's global scope is, as far as the check can tell.
    vi.stubGlobal('ServiceWorkerGlobalScope', class {
      static [Symbol.hasInstance] = (value: unknown) => value === globalThis;
    });
    vi.doMock('../../src/history/read-history.js', () => {
      throw new TypeError('import() is disallowed on ServiceWorkerGlobalScope by the HTML specification.');
    });
    try {
      await expect(fresh.tool.history()).rejects.toMatchObject({
        code: 'unavailable',
        message: expect.stringMatching(/a service worker or an extension's background worker may not load code on demand\. Import the tool from 'idb-memory-tool\/worker' there/) as unknown,
      });
    } finally {
      vi.doUnmock('../../src/history/read-history.js');
      vi.unstubAllGlobals();
    }
  });

  it.skipIf(engine !== 'node')('refuses init() as unavailable when the write path it loads beside the opening cannot be loaded, leaving the database closed (Node only: browser mode cannot make a module fail to load)', async () => {
    const dbName = freshDbName('write-part');
    vi.doMock('../../src/tool/write-part.js', () => {
      throw new TypeError('Failed to fetch dynamically imported module: write-part.js');
    });
    // Nothing left open: the connection opened beside the failed load is closed again.
    const closing = vi.spyOn(MemoryStore.prototype, 'close');
    try {
      await expect(IndexedDBMemoryTool.init({ dbName })).rejects.toMatchObject({ name: 'MemoryToolError', code: 'unavailable' });
      expect(closing).toHaveBeenCalledTimes(1);
    } finally {
      closing.mockRestore();
      vi.doUnmock('../../src/tool/write-part.js');
    }
    // And once it can be loaded, the same database opens and writes.
    const tool = await IndexedDBMemoryTool.init({ dbName });
    try {
      expect(await tool.create({ command: 'create', path: '/memories/a.md', file_text: 'a' })).toBe('File created successfully at: /memories/a.md');
    } finally {
      tool.close();
    }
  });
});
