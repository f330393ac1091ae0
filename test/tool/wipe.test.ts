// `tool.wipe()`: the whole memory erased for good in one transaction, proved on the raw stores (every record of
// every store, keys included, read directly: no byte of any text, path or indexed word is left), announced here and
// to the other tabs, and usable at once after. An aborted signal erases nothing.

import { describe, expect, it } from 'vitest';
import type { MemoryChangeEvent } from '../../src/index.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { dumpStores } from '../helpers/store-dump.js';

const open = toolsClosedAfterEach('wipe');
/** In a file's name, in its texts, old and new, and so in the search index's words. */
const MARKER = 'zebralantern';

async function filled(dbName?: string) {
  const tool = await open(dbName === undefined ? {} : { dbName });
  await tool.write(`/memories/${MARKER}/notes.md`, `the ${MARKER} code is 4417\n`);
  await tool.str_replace({
    command: 'str_replace',
    path: `/memories/${MARKER}/notes.md`,
    old_str: '4417',
    new_str: '9020',
  });
  await tool.rename({ command: 'rename', old_path: `/memories/${MARKER}/notes.md`, new_path: `/memories/${MARKER}.md` });
  await tool.write('/memories/empty/other.md', `another ${MARKER}\n`);
  await tool.delete({ command: 'delete', path: '/memories/empty/other.md' });
  // The search index and a blame have read every body: their traces must go too.
  expect((await tool.search(MARKER)).total).toBe(1);
  expect(await tool.blame(`/memories/${MARKER}.md`)).toHaveLength(2);
  return tool;
}

describe('wipe', () => {
  it('leaves no byte of any text, path or word in any store', async () => {
    const tool = await filled();
    expect(await dumpStores(tool.dbName)).toContain(MARKER);
    const report = await tool.wipe();
    expect(report).toEqual({ files: 1, changes: 5 });
    const raw = await dumpStores(tool.dbName);
    expect(raw).not.toContain(MARKER);
    expect(raw).not.toContain('4417');
    expect(raw).not.toContain('notes.md');
    expect(raw).not.toContain('other.md');
  });

  it('leaves an empty memory that works at once: no file, no history, nothing to undo, search finding only new texts', async () => {
    const tool = await filled();
    await tool.wipe();
    expect(await tool.list()).toEqual([]);
    expect(await tool.history()).toEqual([]);
    await expect(tool.undo()).rejects.toThrow();
    expect((await tool.search(MARKER)).total).toBe(0);
    await tool.write('/memories/again.md', `${MARKER} again\n`);
    expect((await tool.search(MARKER)).hits.map((hit) => hit.path)).toEqual(['/memories/again.md']);
    expect(await tool.history()).toHaveLength(1);
    const reopened = await open({ dbName: tool.dbName });
    expect(await reopened.read('/memories/again.md')).toBe(`${MARKER} again\n`);
  });

  it('is announced here and to another tool on the database as a delete and a forget of /memories', async () => {
    const tool = await filled();
    const other = await open({ dbName: tool.dbName });
    const here: MemoryChangeEvent[] = [];
    tool.subscribe((event) => here.push(event));
    const heard = new Promise<MemoryChangeEvent>((resolve) => {
      other.subscribe((event) => {
        if (event.changes.some((change) => change.type === 'forget')) resolve(event);
      });
    });
    await tool.wipe();
    const changes = [
      { type: 'delete', path: '/memories' },
      { type: 'forget', path: '/memories' },
    ];
    expect(here).toEqual([{ dbName: tool.dbName, source: 'local', changes }]);
    expect(await heard).toEqual({ dbName: tool.dbName, source: 'remote', changes });
    expect(await other.list()).toEqual([]);
  });

  it('erases nothing when its signal is aborted, rejecting with an AbortError', async () => {
    const tool = await filled();
    const before = await dumpStores(tool.dbName);
    const error = await tool.wipe({ signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect((error as Error).name).toBe('AbortError');
    expect(await dumpStores(tool.dbName)).toBe(before);
  });

  it('keeps later writes of the same tool right: the totals after it count from zero', async () => {
    const tool = await open({ limits: { maxFiles: 2 } });
    await tool.write('/memories/a.md', 'a');
    await tool.write('/memories/b.md', 'b');
    await tool.wipe();
    await tool.write('/memories/c.md', 'c');
    await tool.write('/memories/d.md', 'd');
    expect((await tool.list()).map((entry) => entry.path)).toEqual(['/memories/c.md', '/memories/d.md']);
  });

  it('refuses an unknown option, erasing nothing', async () => {
    const tool = await filled();
    await expect(tool.wipe({ remtoe: true } as unknown as { remote: boolean })).rejects.toThrow(
      'Unknown option `remtoe`; did you mean `remote`?',
    );
    expect(await tool.list()).not.toEqual([]);
  });
});
