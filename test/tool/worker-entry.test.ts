// The worker entry (src/entries/worker.ts) hands every part to the tool statically: with each part's module made
// unloadable, the app's methods still run, so nothing is loaded with import(). Node only: browser mode cannot make a
// module fail to load; test/e2e/workers.test.ts runs the entry in a service worker.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IndexedDBMemoryTool } from '../../src/entries/worker.js';
import { engine } from '../helpers/engine.js';
import { freshDbName } from '../helpers/fresh-tool.js';

/** Every module the main entry loads with import(), as lazy-parts.ts names them. */
const PART_MODULES = [
  '../../src/storage/tree-reads.js',
  '../../src/history/read-history.js',
  '../../src/tool/undo-action.js',
  '../../src/tool/expire-action.js',
  '../../src/tool/forget-action.js',
  '../../src/bundle/bundle.js',
  '../../src/tool/write-part.js',
];

describe.skipIf(engine !== 'node')('the worker entry (Node only: browser mode cannot make a module fail to load)', () => {
  beforeEach(() => {
    for (const path of PART_MODULES) {
      vi.doMock(path, () => {
        throw new TypeError('import() is disallowed on ServiceWorkerGlobalScope by the HTML specification.');
      });
    }
  });
  afterEach(() => {
    for (const path of PART_MODULES) vi.doUnmock(path);
  });

  it('provides every part the app’s methods load on first use', async () => {
    const tool = await IndexedDBMemoryTool.init({ dbName: freshDbName('worker-entry') });
    try {
      await tool.create({ command: 'create', path: '/memories/a.md', file_text: 'a' });
      expect((await tool.list()).map((entry) => entry.path)).toEqual(['/memories/a.md']);
      expect(await tool.read('/memories/a.md')).toBe('a');
      expect((await tool.history()).map((entry) => entry.command)).toEqual(['create']);
      expect(await tool.change(1)).toMatchObject({ command: 'create' });
      const bundle = await tool.exportBundle();
      expect(await tool.undo()).toMatchObject({ command: 'undo', undoOf: 1 });
      expect(await tool.importBundle(bundle)).toMatchObject({ added: 1 });
      expect(await tool.expire({ olderThan: 0 })).toEqual({ deleted: ['/memories/a.md'] });
      expect(await tool.forget('/memories/a.md')).toMatchObject({ path: '/memories/a.md' });
      expect(await tool.clearHistory()).toMatchObject({ removedChanges: expect.any(Number) as unknown });
    } finally {
      tool.close();
    }
  });
});
