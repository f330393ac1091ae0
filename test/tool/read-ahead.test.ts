// What a view or an edit reads, and in which order, counted with the request spy: a folder-like name's children read
// beside its entry, and the body of a file this tool has seen read ahead beside the entry (src/storage/read-ahead.ts).

import { describe, expect, it } from 'vitest';
import { IndexedDBMemoryTool } from '../../src/index.js';
import { READ_AHEAD_BYTES } from '../../src/storage/read-ahead.js';
import { freshToolEach } from '../helpers/fresh-tool.js';
import { spyOnRequests } from '../helpers/request-spy.js';

const fresh = freshToolEach('read-ahead');
const { ok, fails, create, read, reopen } = fresh;

describe('reading the children of a folder-like name', () => {
  it('reads a folder-like name\'s children beside its entry, not after it; a file with an extension, never', async () => {
    await create('/memories/notes/a.md', 'a');
    await create('/memories/notes/sub/b.md', 'b');
    await create('/memories/TODO', 'a file with no extension');
    // A tool that has seen none of these files, so no body is read ahead.
    await reopen();
    const requests = spyOnRequests();
    try {
      const listing = await ok({ command: 'view', path: '/memories/notes' });
      expect(listing.split('\n').slice(2)).toEqual(['1B\t/memories/notes/a.md', '4K\t/memories/notes/sub/', '1B\t/memories/notes/sub/b.md']);
      expect(requests.reads()).toEqual(['getAll /memories/notes', 'got /memories/notes', 'getAll /memories/notes/sub']);
      requests.clear();
      await ok({ command: 'view', path: '/memories/notes/a.md' });
      expect(requests.reads().filter((line) => line.startsWith('getAll'))).toEqual([]);
      requests.clear();
      expect(await read('/memories/TODO')).toBe('a file with no extension');
      expect(requests.reads().filter((line) => line.startsWith('getAll'))).toEqual(['getAll /memories/TODO']);
    } finally {
      requests.restore();
    }
  });
});

describe('reading ahead the body of a file this tool has read or written', () => {
  it('reads it beside the entry in a view and an edit, and still answers right when another tool changed the file', async () => {
    await create('/memories/a.md', 'one');
    const requests = spyOnRequests();
    try {
      expect(await read('/memories/a.md')).toBe('one');
      expect(requests.gets()).toEqual(['got a body', 'got /memories/a.md']);
      requests.clear();
      await ok({ command: 'str_replace', path: '/memories/a.md', old_str: 'one', new_str: 'two' });
      expect(requests.gets()).toEqual(['got a body', 'got /memories/a.md']);
      requests.clear();
      await ok({ command: 'insert', path: '/memories/a.md', insert_line: 1, insert_text: 'three' });
      expect(requests.gets()).toEqual(['got a body', 'got /memories/a.md']);
      // Another tab's edit: the body guessed is the old one, so the file's own is read after its entry.
      const other = await IndexedDBMemoryTool.init({ dbName: fresh.tool.dbName });
      await other.str_replace({ command: 'str_replace', path: '/memories/a.md', old_str: 'two', new_str: 'four' });
      other.close();
      requests.clear();
      expect(await read('/memories/a.md')).toBe('four\nthree');
      expect(requests.gets()).toEqual(['got a body', 'got /memories/a.md', 'got a body']);
    } finally {
      requests.restore();
    }
  });

  it('reads after the entry a file it has not seen, a file now gone or a folder, and never guesses a big body', async () => {
    await create('/memories/big.md', `${'x'.repeat(63)}\n`.repeat(1024 + 16));
    await create('/memories/gone.md', 'soon deleted');
    await create('/memories/was-file', 'becomes a folder');
    await ok({ command: 'view', path: '/memories/gone.md' });
    await ok({ command: 'view', path: '/memories/was-file' });
    const other = await IndexedDBMemoryTool.init({ dbName: fresh.tool.dbName });
    await other.delete({ command: 'delete', path: '/memories/gone.md' });
    await other.delete({ command: 'delete', path: '/memories/was-file' });
    await other.create({ command: 'create', path: '/memories/was-file/inside.md', file_text: 'x' });
    await other.create({ command: 'create', path: '/memories/unseen.md', file_text: 'new to this tool' });
    other.close();
    const requests = spyOnRequests();
    try {
      expect(await ok({ command: 'view', path: '/memories/big.md', view_range: [1, 1] })).toBe(
        `Here's the content of /memories/big.md with line numbers:\n     1\t${'x'.repeat(63)}`,
      );
      expect(requests.gets()).toEqual(['got /memories/big.md', 'got a body']);
      requests.clear();
      expect(await read('/memories/unseen.md')).toBe('new to this tool');
      expect(requests.gets()).toEqual(['got /memories/unseen.md', 'got a body']);
      requests.clear();
      expect(await fails({ command: 'view', path: '/memories/gone.md' })).toBe(
        'Error: The path /memories/gone.md does not exist. Please provide a valid path.',
      );
      expect(requests.gets()).toEqual(['got a body', 'got /memories/gone.md']);
      expect((await ok({ command: 'view', path: '/memories/was-file' })).split('\n').at(-1)).toBe('1B\t/memories/was-file/inside.md');
    } finally {
      requests.restore();
    }
  });

  it('never guesses the body id a rolled-back attempt wrote: another tab may have stored a big body under it', async () => {
    await create('/memories/a.md', 'one');
    // Another tab stores a big file, taking the body id this tool's remembered totals name next.
    const other = await IndexedDBMemoryTool.init({ dbName: fresh.tool.dbName });
    await other.create({ command: 'create', path: '/memories/big.md', file_text: 'x'.repeat(1024 * 1024) });
    other.close();
    const requests = spyOnRequests();
    try {
      // Its first attempt writes under that taken id and is rolled back; the rerun must not read the big body.
      await ok({ command: 'str_replace', path: '/memories/a.md', old_str: 'one', new_str: 'two' });
      expect(await read('/memories/a.md')).toBe('two');
      const bodies = requests.answered.filter((one) => one.store === 'bodies' && one.method === 'get');
      expect(bodies.map((one) => String(one.request.result ?? '').length).filter((length) => length > READ_AHEAD_BYTES)).toEqual([]);
    } finally {
      requests.restore();
    }
  });
});
