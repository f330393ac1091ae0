// tool.blame(path) on lines whose change the history no longer holds: each says why (forgotten, cleared, pruned, too
// big to keep, never recorded), through renames, undo and an import, and the marks it reads hold no path or text.

import { describe, expect, it } from 'vitest';
import { openDB } from 'idb';
import type { BlameLine, IndexedDBMemoryTool } from '../../src/index.js';
import type { MemorySchema } from '../../src/storage/schema.js';
import { bundleOf } from '../helpers/bundles.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';

const open = toolsClosedAfterEach('blame-gaps');
const A = '/memories/notes/a.md';
const B = '/memories/notes/b.md';

/** Each line as `text@change`, or `text@why` for one whose change is gone. */
async function blamed(tool: IndexedDBMemoryTool, path: string): Promise<string[]> {
  const lines = await tool.blame(path);
  for (const line of lines) expect(line.dropped === true).toBe(line.change === null);
  return lines.map((line) => `${line.text}@${line.change ?? line.why ?? '?'}`);
}

const last = async (tool: IndexedDBMemoryTool): Promise<number> => (await tool.history({ limit: 1 }))[0]?.id ?? -1;

/** Every journal record, read directly. */
async function journal(dbName: string): Promise<MemorySchema['journal']['value'][]> {
  const db = await openDB<MemorySchema>(dbName);
  try {
    return await db.getAll('journal');
  } finally {
    db.close();
  }
}

/** `A` written, then renamed to `B`, and `A` forgotten: `B` keeps the text, its writer is erased. */
async function renamedThenForgotten(tool: IndexedDBMemoryTool): Promise<void> {
  await tool.create({ command: 'create', path: A, file_text: 'secret one\nsecret two' });
  await tool.rename({ command: 'rename', old_path: A, new_path: B });
  const report = await tool.forget(A);
  expect(report.keptIn).toEqual([B]);
}

describe('blame of lines whose change is gone', () => {
  it('says forgotten for lines whose change forget() erased, and names the changes made since', async () => {
    const tool = await open();
    await renamedThenForgotten(tool);
    expect(await blamed(tool, B)).toEqual(['secret one@forgotten', 'secret two@forgotten']);
    const [first] = await tool.blame(B);
    expect(first).toEqual<BlameLine>({
      line: 1,
      text: 'secret one',
      change: null,
      actor: null,
      at: null,
      dropped: true,
      why: 'forgotten',
    });
    await tool.insert({ command: 'insert', path: B, insert_line: 2, insert_text: 'later' });
    const inserted = await last(tool);
    expect(await blamed(tool, B)).toEqual(['secret one@forgotten', 'secret two@forgotten', `later@${inserted}`]);
  });

  it('keeps only body ids in the journal for it: no path and no text of what was forgotten', async () => {
    const tool = await open();
    await renamedThenForgotten(tool);
    const raw = JSON.stringify(await journal(tool.dbName));
    expect(raw).not.toContain('secret');
    expect(raw).not.toContain('a.md');
    const marks = (await journal(tool.dbName)).flatMap((record) => (record.lost ? [record] : []));
    expect(marks).toHaveLength(1);
    expect(marks[0]).toMatchObject({ hidden: true, paths: [], ops: [], retains: [], lost: { forgotten: [expect.any(Number)] } });
  });

  it('says forgotten through an edit and its undo, and for a file an import wrote', async () => {
    const tool = await open();
    await renamedThenForgotten(tool);
    await tool.insert({ command: 'insert', path: B, insert_line: 2, insert_text: 'later' });
    const inserted = await last(tool);
    await tool.str_replace({ command: 'str_replace', path: B, old_str: 'secret two', new_str: 'changed' });
    await tool.undo();
    expect(await blamed(tool, B)).toEqual(['secret one@forgotten', 'secret two@forgotten', `later@${inserted}`]);
    // An undo that brings back the very text whose writer was forgotten is the change held for it (as when pruned).
    await tool.undo(inserted);
    const undone = await last(tool);
    expect(await blamed(tool, B)).toEqual([`secret one@${undone}`, `secret two@${undone}`]);

    await tool.importBundle(await bundleOf({ '/memories/x.md': 'from x', '/memories/y.md': 'from y' }));
    const imported = await last(tool);
    await tool.rename({ command: 'rename', old_path: '/memories/x.md', new_path: '/memories/z.md' });
    await tool.forget('/memories/x.md');
    expect(await blamed(tool, '/memories/z.md')).toEqual(['from x@forgotten']);
    // The import keeps its other file's step: those lines still name it.
    expect(await blamed(tool, '/memories/y.md')).toEqual([`from y@${imported}`]);
  });

  it('says pruned for lines whose change the bounds dropped, and forgotten ones stay forgotten when pruned past', async () => {
    const tool = await open({ history: { maxEntries: 3 } });
    await renamedThenForgotten(tool);
    await tool.create({ command: 'create', path: '/memories/old.md', file_text: 'old' });
    for (let i = 0; i < 5; i++) await tool.create({ command: 'create', path: `/memories/x${i}.md`, file_text: 'x' });
    await tool.insert({ command: 'insert', path: '/memories/old.md', insert_line: 1, insert_text: 'new' });
    const inserted = await last(tool);
    expect(await blamed(tool, '/memories/old.md')).toEqual(['old@pruned', `new@${inserted}`]);
    expect(await blamed(tool, B)).toEqual(['secret one@forgotten', 'secret two@forgotten']);
  });

  it('says cleared after clearHistory(), pruned for what the bounds dropped since, and forgotten stays', async () => {
    const tool = await open({ history: { maxEntries: 3 } });
    await renamedThenForgotten(tool);
    await tool.create({ command: 'create', path: '/memories/a.md', file_text: 'before' });
    await tool.clearHistory();
    expect(await blamed(tool, '/memories/a.md')).toEqual(['before@cleared']);
    expect(await blamed(tool, B)).toEqual(['secret one@forgotten', 'secret two@forgotten']);
    await tool.create({ command: 'create', path: '/memories/c.md', file_text: 'after' });
    for (let i = 0; i < 5; i++) await tool.create({ command: 'create', path: `/memories/x${i}.md`, file_text: 'x' });
    expect(await blamed(tool, '/memories/c.md')).toEqual(['after@pruned']);
    expect(await blamed(tool, '/memories/a.md')).toEqual(['before@cleared']);
    expect(await blamed(tool, B)).toEqual(['secret one@forgotten', 'secret two@forgotten']);
  });

  it('says unrecorded for lines written with the history off, and too-big past a change kept without its old text', async () => {
    const tool = await open({ history: false });
    await tool.create({ command: 'create', path: '/memories/off.md', file_text: 'off' });
    expect(await blamed(tool, '/memories/off.md')).toEqual(['off@unrecorded']);

    const small = await open({ history: { maxBytes: 4000 } });
    await small.create({ command: 'create', path: '/memories/big.md', file_text: 'y'.repeat(5000) });
    await small.create({ command: 'create', path: '/memories/big.md', file_text: 'short' });
    expect((await small.history({ limit: 1 }))[0]?.undoable).toBe(false);
    expect(await blamed(small, '/memories/big.md')).toEqual(['short@too-big']);
  });
});
