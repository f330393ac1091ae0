// The limits through the tool: maxFileBytes, maxTotalBytes and maxFiles refused before writing (overwrites and
// deletes counted), and limits that are not positive integers rejected by init().

import { describe, expect, it } from 'vitest';
import { IndexedDBMemoryTool } from '../../src/index.js';
import { freshToolEach } from '../helpers/fresh-tool.js';
import { expectCode } from '../helpers/tool-calls.js';

const fresh = freshToolEach('limits');
const { read } = fresh;

describe('limits', () => {
  it('refuses a file over maxFileBytes before writing (R-limits)', async () => {
    const small = await IndexedDBMemoryTool.init({ dbName: fresh.tool.dbName, limits: { maxFileBytes: 10 } });
    try {
      expect((await small.run({ command: 'create', path: '/memories/a', file_text: 'é'.repeat(6) })).content).toBe(
        'Error: File /memories/a would be 12 bytes, over the limit of 10 bytes per file. Nothing was written.',
      );
      await small.run({ command: 'create', path: '/memories/b', file_text: '0123456789' });
      const grow = await small.run({ command: 'insert', path: '/memories/b', insert_line: 1, insert_text: 'x' });
      expect(grow.content).toMatch(/would be 12 bytes, over the limit of 10/);
      expect(await read('/memories/b')).toBe('0123456789');
      await expectCode(small.create({ command: 'create', path: '/memories/c', file_text: 'x'.repeat(11) }), 'too_large');
    } finally {
      small.close();
    }
  });

  it('refuses to pass maxTotalBytes and maxFiles, counting overwrites and deletes (R-limits)', async () => {
    const small = await IndexedDBMemoryTool.init({ dbName: fresh.tool.dbName, limits: { maxTotalBytes: 10, maxFiles: 2 } });
    try {
      await small.run({ command: 'create', path: '/memories/a', file_text: '123456' });
      expect((await small.run({ command: 'create', path: '/memories/b', file_text: '12345' })).content).toBe(
        'Error: The memory would hold 11 bytes, over its limit of 10 bytes. Delete or shorten files first. Nothing was written.',
      );
      expect((await small.run({ command: 'create', path: '/memories/a', file_text: '1234567890' })).is_error).toBe(false);
      await small.run({ command: 'create', path: '/memories/a', file_text: '1' });
      await small.run({ command: 'create', path: '/memories/b', file_text: '1' });
      expect((await small.run({ command: 'create', path: '/memories/c', file_text: '1' })).content).toBe(
        'Error: The memory already holds its limit of 2 files. Delete files first. Nothing was written.',
      );
      await small.run({ command: 'delete', path: '/memories/b' });
      expect((await small.run({ command: 'create', path: '/memories/d/c', file_text: '123456789' })).is_error).toBe(false);
      await small.run({ command: 'delete', path: '/memories/d' });
      expect((await small.run({ command: 'create', path: '/memories/e', file_text: '123456789' })).is_error).toBe(false);
    } finally {
      small.close();
    }
  });

  it('rejects limits that are not positive integers', async () => {
    await expect(IndexedDBMemoryTool.init({ limits: { maxFiles: 0 } })).rejects.toThrow(/limits.maxFiles must be a positive integer/);
  });
});
