// undo() sends every write in one run with its journal record, after its last read: a page closed part-way then
// commits all or none of it, even where the browser commits what a closing page had already sent (Firefox;
// storage/README.md, "Transactions"). test/e2e/atomic-history.test.ts closes real pages part-way.

import { describe, expect, it } from 'vitest';
import { writesAnsweredAtRecord } from '../helpers/request-spy.js';
import { freshToolEach } from '../helpers/fresh-tool.js';

const fresh = freshToolEach('atomic-writes');

async function folderOf(count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await fresh.tool.create({ command: 'create', path: `/memories/d/sub/f${i}.md`, file_text: `file ${i}\n` });
  }
}

describe('an undo', () => {
  it('of a folder delete sends its writes with its record, none answered before it', async () => {
    await folderOf(40);
    await fresh.tool.delete({ command: 'delete', path: '/memories/d' });
    const { writes, answeredAtRecord } = await writesAnsweredAtRecord(() => fresh.tool.undo(), ['entries', 'journal']);
    expect(await fresh.tool.read('/memories/d/sub/f39.md')).toBe('file 39\n');
    // 40 files, two folders, the undone mark and the record.
    expect(writes).toBe(44);
    expect(answeredAtRecord).toEqual([0]);
  });

  it('of a folder rename moves it back with its record, none answered before it', async () => {
    await folderOf(10);
    await fresh.tool.rename({ command: 'rename', old_path: '/memories/d/sub', new_path: '/memories/e/moved' });
    const { answeredAtRecord } = await writesAnsweredAtRecord(() => fresh.tool.undo(), ['entries', 'journal']);
    expect(await fresh.tool.read('/memories/d/sub/f9.md')).toBe('file 9\n');
    expect(answeredAtRecord).toEqual([0]);
  });
});
