// tool.blame(path): every line of a file with the change that wrote it, one `history()` holds, through edits, undo
// (and undo of the undo), renames of the file and of its folder, and imports; a line whose change is gone says so.

import { describe, expect, it } from 'vitest';
import type { BlameLine, IndexedDBMemoryTool } from '../../src/index.js';
import { expectCode } from '../helpers/tool-calls.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { bundleOf } from '../helpers/bundles.js';

const open = toolsClosedAfterEach('blame');

/** Each line as `text@change` (`text@-` for a dropped one), and a check that history() holds every change named. */
async function blamed(tool: IndexedDBMemoryTool, path: string): Promise<string[]> {
  const lines = await tool.blame(path);
  const held = new Set((await tool.history({ limit: 10_000 })).map((entry) => entry.id));
  for (const line of lines) if (line.change !== null) expect(held.has(line.change), `change ${line.change}`).toBe(true);
  const text = await tool.view({ command: 'view', path });
  expect(lines.map((line) => line.text).join('\n')).toBe(
    text.split('\n').slice(1).map((line) => line.slice(7)).join('\n'),
  );
  lines.forEach((line, i) => expect(line.line).toBe(i + 1));
  return lines.map((line) => `${line.text}@${line.change ?? '-'}`);
}

/** The id of the newest change. */
const last = async (tool: IndexedDBMemoryTool): Promise<number> => (await tool.history({ limit: 1 }))[0]?.id ?? -1;

describe('blame', () => {
  it('names, for each line, the change that wrote it, with its actor, time and source', async () => {
    const tool = await open();
    await tool.run({ command: 'create', path: '/memories/a.md', file_text: 'one\ntwo\nthree' }, { source: 'c1' });
    const made = await last(tool);
    await tool.run({ command: 'str_replace', path: '/memories/a.md', old_str: 'two', new_str: 'TWO' }, { source: 'c2' });
    const edited = await last(tool);
    await tool.run({ command: 'insert', path: '/memories/a.md', insert_line: 3, insert_text: 'four' }, { actor: 'user' });
    const inserted = await last(tool);
    expect(await blamed(tool, '/memories/a.md')).toEqual([`one@${made}`, `TWO@${edited}`, `three@${made}`, `four@${inserted}`]);
    const [first, second, , fourth] = await tool.blame('/memories//a.md');
    expect(first).toMatchObject({ actor: 'claude', source: 'c1' });
    expect(first?.at).toBeInstanceOf(Date);
    expect(second).toMatchObject({ actor: 'claude', source: 'c2' });
    expect(fourth?.actor).toBe('user');
    expect(fourth && 'source' in fourth).toBe(false);
  });

  it('gives lines an undo brought back to the change that first wrote them, and a redo to the change it redid', async () => {
    const tool = await open();
    await tool.create({ command: 'create', path: '/memories/a.md', file_text: 'one\ntwo' });
    const made = await last(tool);
    await tool.str_replace({ command: 'str_replace', path: '/memories/a.md', old_str: 'two', new_str: 'TWO' });
    const edited = await last(tool);
    const undo = await tool.undo();
    expect(await blamed(tool, '/memories/a.md')).toEqual([`one@${made}`, `two@${made}`]);
    await tool.undo(undo.id);
    expect(await blamed(tool, '/memories/a.md')).toEqual([`one@${made}`, `TWO@${edited}`]);
  });

  it('follows a deleted file brought back by undo', async () => {
    const tool = await open();
    await tool.create({ command: 'create', path: '/memories/a.md', file_text: 'kept' });
    const made = await last(tool);
    await tool.delete({ command: 'delete', path: '/memories/a.md' });
    await tool.undo();
    expect(await blamed(tool, '/memories/a.md')).toEqual([`kept@${made}`]);
  });

  it('follows a file across renames, its own and its folder’s', async () => {
    const tool = await open();
    await tool.create({ command: 'create', path: '/memories/notes/a.md', file_text: 'one\ntwo' });
    const made = await last(tool);
    await tool.rename({ command: 'rename', old_path: '/memories/notes/a.md', new_path: '/memories/notes/b.md' });
    await tool.insert({ command: 'insert', path: '/memories/notes/b.md', insert_line: 2, insert_text: 'three' });
    const inserted = await last(tool);
    await tool.rename({ command: 'rename', old_path: '/memories/notes', new_path: '/memories/done' });
    await tool.create({ command: 'create', path: '/memories/notes/a.md', file_text: 'another file at the old name' });
    expect(await blamed(tool, '/memories/done/b.md')).toEqual([`one@${made}`, `two@${made}`, `three@${inserted}`]);
  });

  it('names an import for the lines it brought, and keeps the lines it left alone', async () => {
    const tool = await open();
    await tool.create({ command: 'create', path: '/memories/a.md', file_text: 'one\ntwo' });
    const made = await last(tool);
    await tool.importBundle(await bundleOf({ '/memories/a.md': 'one\ntwo\nfrom the bundle', '/memories/b.md': 'b' }));
    const imported = await last(tool);
    expect((await tool.history({ limit: 1 }))[0]?.command).toBe('import');
    expect(await blamed(tool, '/memories/a.md')).toEqual([`one@${made}`, `two@${made}`, `from the bundle@${imported}`]);
    expect(await blamed(tool, '/memories/b.md')).toEqual([`b@${imported}`]);
  });

  it('says a line was dropped when the change that wrote it is no longer held', async () => {
    const tool = await open({ history: { maxEntries: 3 } });
    await tool.create({ command: 'create', path: '/memories/a.md', file_text: 'old' });
    for (let i = 0; i < 4; i++) await tool.create({ command: 'create', path: `/memories/x${i}.md`, file_text: 'x' });
    await tool.insert({ command: 'insert', path: '/memories/a.md', insert_line: 1, insert_text: 'new' });
    const inserted = await last(tool);
    expect(await blamed(tool, '/memories/a.md')).toEqual(['old@-', `new@${inserted}`]);
    const [dropped] = await tool.blame('/memories/a.md');
    expect(dropped).toEqual<BlameLine>({ line: 1, text: 'old', change: null, actor: null, at: null, dropped: true, why: 'pruned' });
    await tool.clearHistory();
    expect(await blamed(tool, '/memories/a.md')).toEqual(['old@-', 'new@-']);
  });

  it('names the undo for the lines it brought back when the change that first wrote them is no longer held', async () => {
    const tool = await open({ history: { maxEntries: 3 } });
    await tool.create({ command: 'create', path: '/memories/a.md', file_text: 'first' });
    await tool.create({ command: 'create', path: '/memories/a.md', file_text: 'second' });
    const undo = await tool.undo();
    await tool.create({ command: 'create', path: '/memories/b.md', file_text: 'b' }); // prunes the first two
    expect((await tool.history()).map((entry) => entry.id)).not.toContain(undo.undoOf);
    expect(await tool.read('/memories/a.md')).toBe('first');
    expect(await blamed(tool, '/memories/a.md')).toEqual([`first@${undo.id}`]);
  });

  it('refuses a missing path and a folder', async () => {
    const tool = await open();
    await tool.create({ command: 'create', path: '/memories/f/a.md', file_text: 'a' });
    await expectCode(tool.blame('/memories/none.md'), 'not_found');
    await expectCode(tool.blame('/memories/f'), 'not_a_file');
    await expectCode(tool.blame('/etc/passwd'), 'invalid_path');
  });
});
