// create through the tool: files and their parent folders, overwrite on or off, refusals below a file or in place
// of a folder (changing nothing), and harmless spellings of one path.

import { describe, expect, it } from 'vitest';
import { IndexedDBMemoryTool } from '../../src/index.js';
import { freshToolEach } from '../helpers/fresh-tool.js';
import { expectCode } from '../helpers/tool-calls.js';

const fresh = freshToolEach('create');
const { run, ok, fails, create, read, unchanged } = fresh;

describe('create', () => {
  it('creates a file and its parent folders (R-create)', async () => {
    expect(await create('/memories/a/b/c.md', 'hi')).toBe('File created successfully at: /memories/a/b/c.md');
    expect(await ok({ command: 'view', path: '/memories/a' })).toContain('4K\t/memories/a/b/\n2B\t/memories/a/b/c.md');
  });

  it('overwrites an existing file by default (R-create-exists)', async () => {
    await create('/memories/a.md', 'old');
    expect(await create('/memories/a.md', 'new')).toBe('File created successfully at: /memories/a.md');
    expect(await read('/memories/a.md')).toBe('new');
  });

  it('refuses an existing file with overwrite: false, changing nothing (R-create-exists)', async () => {
    const strict = await IndexedDBMemoryTool.init({ dbName: fresh.tool.dbName, overwrite: false });
    try {
      await create('/memories/a.md', 'old');
      expect((await strict.run({ command: 'create', path: '/memories/a.md', file_text: 'new' })).content).toBe(
        'Error: File /memories/a.md already exists',
      );
      await expectCode(strict.create({ command: 'create', path: '/memories/a.md', file_text: 'x' }), 'already_exists');
      expect(await read('/memories/a.md')).toBe('old');
    } finally {
      strict.close();
    }
  });

  it('refuses to create below a file with a plain sentence, making no folder (R-below-file)', async () => {
    await create('/memories/a.md', 'x');
    await unchanged(async () => {
      expect(await fails({ command: 'create', path: '/memories/a.md/b/c.md', file_text: 'y' })).toBe(
        'Error: Cannot create /memories/a.md/b/c.md: /memories/a.md is a file, so nothing can be stored below it.',
      );
    });
  });

  it('refuses to replace a folder or the root with a file, as the SDK words it, and changes nothing (R-create-exists)', async () => {
    await create('/memories/dir/x.md', 'x');
    await unchanged(async () => {
      for (const path of ['/memories/dir', '/memories/dir/', '/memories/', '/memories']) {
        expect(await run({ command: 'create', path, file_text: 'y' })).toEqual({
          content: `Error: File ${path} already exists`,
          is_error: true,
          code: 'is_a_directory',
        });
      }
    });
  });

  it('treats harmless spellings as one file and NFC-normalizes names (R-paths)', async () => {
    await create('/memories//notes/./café.md/', 'one');
    await create('/memories/notes/cafe\u0301.md', 'two');
    const listing = await ok({ command: 'view', path: '/memories/notes' });
    expect(listing.split('\n').filter((line) => line.includes('caf'))).toEqual(['3B\t/memories/notes/café.md']);
    expect(await read('/memories/notes/café.md')).toBe('two');
  });
});
