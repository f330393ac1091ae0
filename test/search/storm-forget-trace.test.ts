// forget() and clearHistory() leave no word of the erased text in any store, the search index included: every store
// of the database is dumped raw after a search has run (so whatever index search keeps exists and holds the word).

import { describe, expect, it } from 'vitest';
import type { IndexedDBMemoryTool } from '../../src/index.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { dumpDatabase, tracesOf } from '../helpers/search-dump.js';

const open = toolsClosedAfterEach('search-forget-trace');
const user = { actor: 'user' } as const;
/** A word no other text here holds, nor any run of five of its letters. */
const SECRET = 'Qzjxwvkqyb';

async function withNeighbours(tool: IndexedDBMemoryTool): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await tool.execute({ command: 'create', path: `/memories/other-${i}.md`, file_text: `green tea number ${i}` }, user);
  }
}

const where = (traces: Array<{ store: string; where: string }>) => traces.map((t) => `${t.store}: ${t.where}`);

describe('erasing leaves no word of it in any store', () => {
  it('forget() of a file, renamed and searched before, leaves no trace of its unique word', async () => {
    const tool = await open();
    await withNeighbours(tool);
    await tool.execute({ command: 'create', path: '/memories/secret.md', file_text: `the code is ${SECRET}\nkeep it` }, user);
    await tool.execute({ command: 'rename', old_path: '/memories/secret.md', new_path: '/memories/moved.md' }, user);
    expect((await tool.search(SECRET)).hits.map((hit) => hit.path)).toEqual(['/memories/moved.md']);
    await tool.search('green');
    // The dump sees the word while it is there: a dump that found nothing would prove nothing.
    expect(tracesOf(await dumpDatabase(tool.dbName), SECRET).length).toBeGreaterThan(0);

    await tool.forget('/memories/moved.md');
    expect((await tool.search(SECRET)).total).toBe(0);
    expect(where(tracesOf(await dumpDatabase(tool.dbName), SECRET))).toEqual([]);
    expect((await tool.search('tea')).total).toBe(5);
  });

  it('forget() of a folder leaves no trace of a word of a file in it', async () => {
    const tool = await open();
    await withNeighbours(tool);
    await tool.execute({ command: 'create', path: '/memories/private/a.md', file_text: `${SECRET.toUpperCase()} here` }, user);
    await tool.execute({ command: 'str_replace', path: '/memories/private/a.md', old_str: 'here', new_str: 'there' }, user);
    expect((await tool.search(SECRET)).total).toBe(1);

    await tool.forget('/memories/private');
    expect((await tool.search(SECRET)).total).toBe(0);
    expect(where(tracesOf(await dumpDatabase(tool.dbName), SECRET))).toEqual([]);
  });

  it('clearHistory() leaves no trace of a word edited away after it was searched for', async () => {
    const tool = await open();
    const other = await open({ dbName: tool.dbName });
    await withNeighbours(tool);
    await tool.execute({ command: 'create', path: '/memories/note.md', file_text: `first ${SECRET}\nsecond line` }, user);
    expect((await other.search(SECRET)).total).toBe(1);
    await tool.execute({ command: 'str_replace', path: '/memories/note.md', old_str: SECRET, new_str: 'nothing' }, user);
    expect((await other.search(SECRET)).total).toBe(0);
    // The history still holds the old text until it is cleared.
    expect(tracesOf(await dumpDatabase(tool.dbName), SECRET).length).toBeGreaterThan(0);

    await other.clearHistory();
    expect(where(tracesOf(await dumpDatabase(tool.dbName), SECRET))).toEqual([]);
    expect((await tool.search('nothing')).hits.map((hit) => hit.path)).toEqual(['/memories/note.md']);
  });
});
