// A body whose write committed without its journal record: Firefox commits what a closing page had already sent, so a
// write cut between its early body and its record leaves one. The next writes must not try to take its id
// (src/storage/optimistic-totals.ts, readTotals).

import { afterEach, describe, expect, it } from 'vitest';
import { openDB } from 'idb';
import { IndexedDBMemoryTool } from '../../src/index.js';
import { unpackTotals } from '../../src/storage/schema.js';
import type { JournalRecord } from '../../src/storage/schema.js';
import { freshDbName } from '../helpers/fresh-tool.js';

const opened: IndexedDBMemoryTool[] = [];
afterEach(() => {
  for (const tool of opened.splice(0)) tool.close();
});

async function open(dbName: string): Promise<IndexedDBMemoryTool> {
  const tool = await IndexedDBMemoryTool.init({ dbName });
  opened.push(tool);
  return tool;
}

/** Adds a body under the id the totals hand out next, as a cut write would have left it. */
async function leaveOrphanBody(dbName: string): Promise<number> {
  const db = await openDB(dbName);
  try {
    const records = (await db.getAll('journal')) as JournalRecord[];
    const last = records.at(-1);
    const id = last?.totals ? unpackTotals(last.totals).nextBody : 1;
    await db.add('bodies', 'orphan', id);
    return id;
  } finally {
    db.close();
  }
}

describe('a body left without its journal record', () => {
  it('is passed over by the next edit of another tool, which reads the totals', async () => {
    const dbName = freshDbName('orphan');
    const first = await open(dbName);
    await first.create({ command: 'create', path: '/memories/a.md', file_text: 'one\ntwo\n' });
    await leaveOrphanBody(dbName);
    const second = await open(dbName);
    expect(await second.str_replace({ command: 'str_replace', path: '/memories/a.md', old_str: 'two', new_str: 'three' })).toContain(
      'has been edited',
    );
    expect(await second.insert({ command: 'insert', path: '/memories/a.md', insert_line: 0, insert_text: 'zero' })).toContain(
      'has been edited',
    );
    expect(await second.read('/memories/a.md')).toBe('zero\none\nthree\n');
  });

  it('is passed over by the tool that wrote last, which trusted the totals it remembered', async () => {
    const dbName = freshDbName('orphan-trusted');
    const tool = await open(dbName);
    await tool.create({ command: 'create', path: '/memories/a.md', file_text: 'one\n' });
    await tool.create({ command: 'create', path: '/memories/b.md', file_text: 'b\n' });
    await leaveOrphanBody(dbName);
    await tool.str_replace({ command: 'str_replace', path: '/memories/a.md', old_str: 'one', new_str: 'two' });
    await tool.create({ command: 'create', path: '/memories/c.md', file_text: 'c\n' });
    expect([await tool.read('/memories/a.md'), await tool.read('/memories/c.md')]).toEqual(['two\n', 'c\n']);
  });
});
