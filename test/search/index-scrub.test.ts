import { describe, expect, it } from 'vitest';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { dumpDatabase, expectAgrees, indexIdle, tuneIndex } from '../helpers/index-oracle.js';

const open = toolsClosedAfterEach('index-scrub');

// A word no store holds unless some text of the memory does.
const SECRET = 'quixoticzebrafjord';

describe('the search index and forgetting', () => {
  it('keeps no word of a forgotten file in any store once forget() resolves, also of its older versions', async () => {
    const tool = await open();
    await tool.create({ command: 'create', path: '/memories/notes.md', file_text: `the code is ${SECRET}\nkeep` });
    await tool.create({ command: 'create', path: '/memories/other.md', file_text: 'the other file' });
    // Indexed, then edited: the history keeps the old text, and the index has both versions.
    expect((await tool.search(SECRET)).total).toBe(1);
    await tool.str_replace({ command: 'str_replace', path: '/memories/notes.md', old_str: 'keep', new_str: `again ${SECRET}` });
    expect((await tool.search(SECRET)).total).toBe(1);
    expect(await dumpDatabase(tool.dbName)).toContain(SECRET);
    await tool.forget('/memories/notes.md');
    expect(await dumpDatabase(tool.dbName)).not.toContain(SECRET);
    await expectAgrees(tool, 'the');
    expect((await tool.search(SECRET)).total).toBe(0);
  });

  it.each([
    ['delta rows', {}],
    ['bucket rows', { bucketPostings: 1 }],
    ['merged main records', { mergeThreshold: 1 }],
  ])('keeps no pair of common words (biword) of a forgotten file in any store, from %s', async (_name, tuning) => {
    const tool = await open();
    tuneIndex(tool, tuning);
    // `should which` and `which after` are pairs of common words no other file holds: each is a biword term.
    await tool.create({ command: 'create', path: '/memories/notes.md', file_text: `we should which after ${SECRET}` });
    await tool.create({ command: 'create', path: '/memories/other.md', file_text: 'we should go' });
    expect((await tool.search('"should which"')).total).toBe(1);
    await indexIdle(tool);
    const before = await dumpDatabase(tool.dbName);
    expect(before).toContain('@should which');
    expect(before).toContain('@which after');
    await tool.forget('/memories/notes.md');
    const after = await dumpDatabase(tool.dbName);
    expect(after).not.toContain('should which');
    expect(after).not.toContain('which after');
    expect(after).not.toContain(SECRET);
    // The pair the other file holds stays.
    expect(after).toContain('@we should');
    await expectAgrees(tool, '"we should"');
    expect((await tool.search('"should which"')).total).toBe(0);
  });

  it('keeps no word of a text only the history held once clearHistory() resolves', async () => {
    const tool = await open();
    await tool.create({ command: 'create', path: '/memories/a.md', file_text: `first ${SECRET} draft` });
    await tool.search('draft');
    await tool.create({ command: 'create', path: '/memories/a.md', file_text: 'second draft' });
    await tool.search('draft');
    expect(await dumpDatabase(tool.dbName)).toContain(SECRET);
    await tool.clearHistory();
    expect(await dumpDatabase(tool.dbName)).not.toContain(SECRET);
    await expectAgrees(tool, 'draft');
  });

  it('scrubs behind the first search of a page the words of bodies deleted since (a closed page, a trimmed history)', async () => {
    const first = await open({ history: false });
    await first.create({ command: 'create', path: '/memories/a.md', file_text: `old ${SECRET}` });
    await first.create({ command: 'create', path: '/memories/b.md', file_text: 'old text' });
    await first.search('old');
    // With no history, a delete deletes the body at once; the index is not told.
    await first.delete({ command: 'delete', path: '/memories/a.md' });
    await expectAgrees(first, 'old');
    first.close();
    expect(await dumpDatabase(first.dbName)).toContain(SECRET);
    const next = await open({ dbName: first.dbName });
    await expectAgrees(next, 'old');
    await indexIdle(next);
    expect(await dumpDatabase(next.dbName)).not.toContain(SECRET);
  });

  it('finds a body deleted far into the memory, looking at a few docs a transaction, and scrubs it behind the search', async () => {
    const first = await open({ history: false });
    for (let i = 0; i < 9; i++) {
      await first.create({ command: 'create', path: `/memories/f${i}.md`, file_text: i === 7 ? `old ${SECRET}` : `old text ${i}` });
    }
    await first.search('old');
    await first.delete({ command: 'delete', path: '/memories/f7.md' });
    first.close();
    expect(await dumpDatabase(first.dbName)).toContain(SECRET);
    // Two docs a step: the gone body is in the fourth.
    const next = await open({ dbName: first.dbName });
    tuneIndex(next, { checkDocs: 2 });
    await expectAgrees(next, 'old');
    await indexIdle(next);
    expect(await dumpDatabase(next.dbName)).not.toContain(SECRET);
  });

  it('takes a forgotten body out of the bucket rows a big drain chunk writes, keeping the other bodies in them', async () => {
    const tool = await open();
    // Every chunk counts as big: its runs go to the delta in bucket rows.
    tuneIndex(tool, { bucketPostings: 1, chunkBodies: 8 });
    for (let i = 0; i < 5; i++) {
      const secret = i === 2 ? ` ${SECRET}` : '';
      await tool.create({ command: 'create', path: `/memories/n${i}.md`, file_text: `shared words of note ${i}${secret}` });
    }
    expect((await tool.search(`shared ${SECRET}`)).total).toBe(5);
    await tool.forget('/memories/n2.md');
    expect(await dumpDatabase(tool.dbName)).not.toContain(SECRET);
    await expectAgrees(tool, 'shared');
    await expectAgrees(tool, '"words of note"');
    await expectAgrees(tool, 'no', { prefix: true });
    expect((await tool.search('shared')).total).toBe(4);
  });
});
