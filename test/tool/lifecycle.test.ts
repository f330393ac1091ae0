// A tool's lifecycle: the memory kept across init() on one database, a storage error after close(), and separate
// databases kept apart.

import { describe, expect, it } from 'vitest';
import { IndexedDBMemoryTool } from '../../src/index.js';
import { freshToolEach } from '../helpers/fresh-tool.js';

const fresh = freshToolEach('lifecycle');
const { run, create } = fresh;

describe('lifecycle', () => {
  it('keeps the memory across init calls on the same database', async () => {
    await create('/memories/kept.md', 'still here');
    const again = await IndexedDBMemoryTool.init({ dbName: fresh.tool.dbName });
    try {
      expect((await again.run({ command: 'view', path: '/memories/kept.md' })).content).toContain('still here');
    } finally {
      again.close();
    }
  });

  it('fails with a storage error after close()', async () => {
    fresh.tool.close();
    const result = await run({ command: 'view', path: '/memories' });
    expect(result).toEqual({
      is_error: true,
      code: 'storage',
      content: 'Error: The memory storage failed (the memory was closed). Nothing was written.',
    });
  });

  it('keeps separate databases apart', async () => {
    const other = await IndexedDBMemoryTool.init({ dbName: `${fresh.tool.dbName}-other` });
    try {
      await create('/memories/mine.md', 'x');
      expect((await other.run({ command: 'view', path: '/memories/mine.md' })).is_error).toBe(true);
    } finally {
      other.close();
    }
  });
});
