// Forgetting for good: `forget(path)` erases a file or folder and every copy of its contents in the history, and
// `clearHistory()` the whole history. Proved on the raw stores: every record of entries, bodies and journal, read
// directly from IndexedDB, must hold no byte of the forgotten text, whose copies a write, an edit, a rename, a delete,
// undos, an expiry and a re-creation have spread over many records.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDB } from 'idb';
import { IndexedDBMemoryTool } from '../../src/index.js';
import type { MemoryChangeEvent } from '../../src/index.js';
import type { MemorySchema } from '../../src/storage/schema.js';
import { bundleOf } from '../helpers/bundles.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';

const open = toolsClosedAfterEach('forget');
afterEach(() => {
  vi.useRealTimers();
});

/** In every version of the file to forget, and nowhere else. */
const MARKER = 'QX7-zebra-lantern-4417';
/** The file's names (also to be forgotten: a name may be the secret). */
const FIRST = '/memories/private/vault-notes.md';
const MOVED = '/memories/private/renamed-vault.md';
const HOUR = 3600_000;

/** Every record of every store, keys included, read directly: what a forensic look at the database would find. */
async function dump(dbName: string): Promise<string> {
  const db = await openDB<MemorySchema>(dbName);
  try {
    const tx = db.transaction(['entries', 'bodies', 'journal'], 'readonly');
    const stores = await Promise.all(
      (['entries', 'bodies', 'journal'] as const).map(async (name) => [
        name,
        await tx.objectStore(name).getAllKeys(),
        await tx.objectStore(name).getAll(),
      ]),
    );
    return JSON.stringify(stores);
  } finally {
    db.close();
  }
}

/** Where the totals the last journal record carries disagree with the stores (none: all hold). */
async function totalsProblems(dbName: string): Promise<string[]> {
  const db = await openDB<MemorySchema>(dbName);
  try {
    const [entries, bodyIds, journal] = await Promise.all([db.getAll('entries'), db.getAllKeys('bodies'), db.getAll('journal')]);
    const [, bytes, files, , journalBytes, journalEntries] = journal.at(-1)?.totals ?? [0, 0, 0, 1, 0, 0];
    const fileEntries = entries.filter((entry) => entry.kind === 'file');
    const visible = journal.filter((record) => !record.hidden);
    const held = new Set([...fileEntries.map((entry) => entry.bodyId), ...journal.flatMap((record) => record.retains)]);
    const out: string[] = [];
    if (files !== fileEntries.length) out.push(`files: totals ${files}, stores ${fileEntries.length}`);
    const size = fileEntries.reduce((sum, entry) => sum + entry.size, 0);
    if (bytes !== size) out.push(`bytes: totals ${bytes}, stores ${size}`);
    if (journalEntries !== visible.length) out.push(`journalEntries: totals ${journalEntries}, stores ${visible.length}`);
    const kept = visible.reduce((sum, record) => sum + record.bytes, 0);
    if (journalBytes !== kept) out.push(`journalBytes: totals ${journalBytes}, records ${kept}`);
    for (const id of bodyIds) if (!held.has(id)) out.push(`body ${id} leaked`);
    for (const id of held) if (id !== undefined && !bodyIds.includes(id)) out.push(`body ${id} is held but gone`);
    return out;
  } finally {
    db.close();
  }
}

const ok = async (tool: IndexedDBMemoryTool, input: Record<string, unknown>): Promise<string> => {
  const result = await tool.run(input);
  expect(result.is_error, result.content).toBe(false);
  return result.content;
};

/**
 * A memory where the marked file has been written, edited, renamed, deleted with its folder and brought back,
 * expired and brought back, deleted, and written again under its first name. Beside it a file that has nothing to
 * do with it, edited twice, and one in its folder, deleted, expired and brought back with it. Copies of the marker
 * are in many journal records and bodies.
 */
async function markedMemory(tool: IndexedDBMemoryTool): Promise<void> {
  vi.useFakeTimers({ toFake: ['Date'] });
  const start = Date.UTC(2026, 0, 1);
  vi.setSystemTime(start);
  await ok(tool, { command: 'create', path: FIRST, file_text: `first ${MARKER}\n` });
  await ok(tool, { command: 'str_replace', path: FIRST, old_str: 'first', new_str: 'edited' });
  await ok(tool, { command: 'create', path: '/memories/keep.md', file_text: 'keep one\n' });
  await ok(tool, { command: 'str_replace', path: '/memories/keep.md', old_str: 'one', new_str: 'two' });
  await ok(tool, { command: 'rename', old_path: FIRST, new_path: MOVED });
  await ok(tool, { command: 'create', path: '/memories/private/other.md', file_text: 'other\n' });
  await ok(tool, { command: 'delete', path: '/memories/private' });
  await tool.undo();
  // A day on, the files in the folder are unused for an hour: the expiry takes them, and its undo brings them back.
  vi.setSystemTime(start + 24 * HOUR);
  await ok(tool, { command: 'view', path: '/memories/keep.md' });
  expect(await tool.expire({ olderThan: HOUR })).toEqual({ deleted: ['/memories/private/other.md', MOVED] });
  await tool.undo();
  await ok(tool, { command: 'delete', path: MOVED });
  await ok(tool, { command: 'create', path: FIRST, file_text: `again ${MARKER}\n` });
  vi.useRealTimers();
}

/** Every change `history()` lists, with `change(id)` of each, as one text. */
async function historyText(tool: IndexedDBMemoryTool): Promise<string> {
  const entries = await tool.history({ limit: 1000 });
  return JSON.stringify(await Promise.all(entries.map(async (entry) => [entry, await tool.change(entry.id)])));
}

describe('forget', () => {
  it('erases a file and every copy of its text and names from every store, leaving the rest of the history usable', async () => {
    const tool = await open();
    await markedMemory(tool);
    expect(await dump(tool.dbName)).toContain(MARKER);
    const ids = (await tool.history({ limit: 1000 })).map((entry) => entry.id);

    const report = await tool.forget('/memories//private/vault-notes.md');
    expect(report).toMatchObject({ path: FIRST, deleted: [FIRST], keptIn: [] });
    expect(report.removedChanges.length).toBeGreaterThan(0);

    const raw = await dump(tool.dbName);
    expect(raw).not.toContain(MARKER);
    expect(raw).not.toContain('vault');
    const shown = await historyText(tool);
    expect(shown).not.toContain(MARKER);
    expect(shown).not.toContain('vault');
    for (const id of report.removedChanges) expect(await tool.change(id)).toBeUndefined();
    expect(await totalsProblems(tool.dbName)).toEqual([]);

    // The rest stays: the other files, their history, and the changes that did more than touch the forgotten file.
    expect((await tool.list()).map((entry) => entry.path)).toEqual(['/memories/keep.md', '/memories/private', '/memories/private/other.md']);
    const left = await tool.history({ limit: 1000 });
    expect(left.length + report.removedChanges.length).toBe(ids.length);
    const keepEdit = left.find((entry) => entry.command === 'str_replace' && entry.paths.includes('/memories/keep.md'));
    expect(keepEdit?.undoable).toBe(true);
    await tool.undo(keepEdit?.id);
    expect(await tool.read('/memories/keep.md')).toBe('keep one\n');
    // The folder's delete, the expiry and their undos also took other.md: kept without the forgotten file, never
    // undone now.
    const trimmed = left.filter((entry) => report.trimmedChanges.includes(entry.id));
    expect(trimmed.map((entry) => `${entry.command} ${entry.paths.join()}`)).toEqual([
      'undo /memories/private/other.md',
      'expire /memories/private/other.md',
      'undo /memories/private',
      'delete /memories/private',
    ]);
    expect(trimmed.map((entry) => entry.undoable)).toEqual([false, false, false, false]);
    const undoOfExpiry = trimmed[0]?.id ?? 0;
    await expect(tool.undo(undoOfExpiry)).rejects.toMatchObject({
      code: 'conflict',
      message: `Change ${undoOfExpiry} cannot be undone: part of what it changed has been forgotten for good. Nothing was changed.`,
    });
    expect(await tool.change(undoOfExpiry)).toMatchObject({ files: [{ path: '/memories/private/other.md', before: null, after: 'other\n' }] });
    await expect(tool.undo(report.removedChanges[0])).rejects.toMatchObject({ code: 'not_found' });
    expect(await totalsProblems(tool.dbName)).toEqual([]);
  });

  it('erases a file that is only in the history, under its earlier names too, and a folder with all below it', async () => {
    const tool = await open();
    await ok(tool, { command: 'create', path: '/memories/a/old-name.md', file_text: `one ${MARKER}` });
    await ok(tool, { command: 'rename', old_path: '/memories/a/old-name.md', new_path: '/memories/b/new-name.md' });
    await ok(tool, { command: 'str_replace', path: '/memories/b/new-name.md', old_str: 'one', new_str: 'two' });
    await ok(tool, { command: 'create', path: '/memories/b/other.md', file_text: `other ${MARKER}` });
    await ok(tool, { command: 'create', path: '/memories/c.md', file_text: 'c' });
    await ok(tool, { command: 'delete', path: '/memories/b/new-name.md' });
    // Gone from the memory, still in the history: forgetting its last name takes its first too.
    expect(await tool.forget('/memories/b/new-name.md')).toMatchObject({ deleted: [], keptIn: [] });
    expect(await historyText(tool)).not.toContain('name.md');
    expect(await dump(tool.dbName)).not.toContain('name.md');
    expect(await dump(tool.dbName)).toContain(`other ${MARKER}`);
    // A folder: itself, all below it, and their history.
    expect(await tool.forget('/memories/b')).toMatchObject({ deleted: ['/memories/b', '/memories/b/other.md'] });
    expect(await dump(tool.dbName)).not.toContain(MARKER);
    expect((await tool.list()).map((entry) => entry.path)).toEqual(['/memories/a', '/memories/c.md']);
    expect(await totalsProblems(tool.dbName)).toEqual([]);
    await tool.undo();
    expect((await tool.list()).map((entry) => entry.path)).toEqual(['/memories/a']);
  });

  it('leaves every entry that holds nothing of it as it was, an import of folders alone (no paths listed) too', async () => {
    const tool = await open();
    await tool.importBundle(await bundleOf({}, ['/memories/empty']));
    await ok(tool, { command: 'create', path: '/memories/gone.md', file_text: 'x' });
    await ok(tool, { command: 'create', path: '/memories/stays.md', file_text: 'y' });
    const before = await tool.history();
    expect(await tool.forget('/memories/gone.md')).toMatchObject({ removedChanges: [before[1]?.id], trimmedChanges: [] });
    expect(await tool.history()).toEqual([before[0], before[2]]);
    await tool.undo(before[2]?.id);
    expect((await tool.list()).map((entry) => entry.path)).toEqual(['/memories/stays.md']);
  });

  it('leaves a file the forgotten text was renamed into as it is, and says where it is', async () => {
    const tool = await open();
    await ok(tool, { command: 'create', path: '/memories/draft.md', file_text: `draft ${MARKER}` });
    await ok(tool, { command: 'rename', old_path: '/memories/draft.md', new_path: '/memories/final.md' });
    await ok(tool, { command: 'create', path: '/memories/draft.md', file_text: 'a new draft' });
    const report = await tool.forget('/memories/draft.md');
    expect(report).toMatchObject({ deleted: ['/memories/draft.md'], keptIn: ['/memories/final.md'] });
    expect(await tool.read('/memories/final.md')).toBe(`draft ${MARKER}`);
    expect(await dump(tool.dbName)).not.toContain('a new draft');
    expect(await totalsProblems(tool.dbName)).toEqual([]);
  });

  it('refuses a bad path, a path outside /memories, /memories itself and a path it knows nothing of, changing nothing', async () => {
    const tool = await open();
    await markedMemory(tool);
    const before = await dump(tool.dbName);
    const refusals: Array<[unknown, string]> = [
      ['/etc/passwd', 'invalid_path'],
      ['/memories/../memories/keep.md', 'invalid_path'],
      ['/memories/a%2fb', 'invalid_path'],
      [42, 'invalid_input'],
      ['/memories', 'forbidden'],
      ['/memories/', 'forbidden'],
      ['/memories/never-there.md', 'not_found'],
    ];
    for (const [path, code] of refusals) {
      await expect(tool.forget(path as string), String(path)).rejects.toMatchObject({ code });
    }
    await expect(tool.forget('/memories/never-there.md')).rejects.toThrow(
      'There is nothing at /memories/never-there.md, in the memory or in its history, to forget. Nothing was changed.',
    );
    expect(await dump(tool.dbName)).toBe(before);
  });

  it('keeps the totals right for another tool that remembered them, and with the history off', async () => {
    const tool = await open({ limits: { maxFiles: 3 } });
    const other = await open({ dbName: tool.dbName, history: false, limits: { maxFiles: 3 } });
    await ok(tool, { command: 'create', path: '/memories/a.md', file_text: 'a' });
    await ok(other, { command: 'create', path: '/memories/b.md', file_text: 'b' });
    await ok(other, { command: 'create', path: '/memories/c.md', file_text: 'c' });
    await other.forget('/memories/a.md');
    // Two files now: each tool may write one more, not two.
    await ok(tool, { command: 'create', path: '/memories/d.md', file_text: 'd' });
    expect((await other.run({ command: 'create', path: '/memories/e.md', file_text: 'e' })).content).toMatch(/limit of 3 files/u);
    expect(await totalsProblems(tool.dbName)).toEqual([]);
  });

  it('is announced here and to another tool on the database, after the delete of what was there', async () => {
    const tool = await open();
    const other = await open({ dbName: tool.dbName });
    const here: MemoryChangeEvent[] = [];
    const there: MemoryChangeEvent[] = [];
    tool.subscribe((event) => here.push(event));
    const heard = new Promise<void>((resolve) => {
      other.subscribe((event) => {
        there.push(event);
        if (event.changes.some((change) => change.type === 'forget')) resolve();
      });
    });
    await ok(tool, { command: 'create', path: '/memories/a.md', file_text: 'a' });
    here.length = 0;
    await tool.forget('/memories/a.md');
    const changes = [
      { type: 'delete', path: '/memories/a.md' },
      { type: 'forget', path: '/memories/a.md' },
    ];
    expect(here).toEqual([{ dbName: tool.dbName, source: 'local', changes }]);
    await heard;
    expect(there.at(-1)).toEqual({ dbName: tool.dbName, source: 'remote', changes });
  });
});

describe('clearHistory', () => {
  it('empties the history and every old content in the stores, keeping the files, and is announced', async () => {
    const tool = await open();
    const other = await open({ dbName: tool.dbName });
    await markedMemory(tool);
    await ok(tool, { command: 'delete', path: FIRST });
    const ids = (await tool.history({ limit: 1000 })).map((entry) => entry.id);
    const heard = new Promise<MemoryChangeEvent>((resolve) => {
      other.subscribe((event) => {
        if (event.changes.some((change) => change.type === 'history-cleared')) resolve(event);
      });
    });
    const here: MemoryChangeEvent[] = [];
    tool.subscribe((event) => here.push(event));

    expect(await tool.clearHistory()).toEqual({ removedChanges: ids.length });
    const raw = await dump(tool.dbName);
    expect(raw).not.toContain(MARKER);
    expect(raw).not.toContain('keep one');
    expect(raw).not.toContain('vault');
    expect(await tool.history()).toEqual([]);
    for (const id of ids) expect(await tool.change(id)).toBeUndefined();
    await expect(tool.undo()).rejects.toMatchObject({ code: 'not_found' });
    expect((await tool.list()).map((entry) => entry.path)).toEqual(['/memories/keep.md', '/memories/private', '/memories/private/other.md']);
    expect(await tool.read('/memories/keep.md')).toBe('keep two\n');
    expect(await totalsProblems(tool.dbName)).toEqual([]);
    const cleared = [{ type: 'history-cleared', path: '/memories' }];
    expect(here).toEqual([{ dbName: tool.dbName, source: 'local', changes: cleared }]);
    expect(await heard).toEqual({ dbName: tool.dbName, source: 'remote', changes: cleared });

    // The history goes on from there.
    await ok(tool, { command: 'str_replace', path: '/memories/keep.md', old_str: 'two', new_str: 'three' });
    await tool.undo();
    expect(await tool.read('/memories/keep.md')).toBe('keep two\n');
    expect(await tool.clearHistory()).toEqual({ removedChanges: 2 });
    expect(await tool.clearHistory()).toEqual({ removedChanges: 0 });
    expect(await totalsProblems(tool.dbName)).toEqual([]);
  });

  it('drops what another tool recorded, from a tool that records nothing', async () => {
    const tool = await open();
    await ok(tool, { command: 'create', path: '/memories/a.md', file_text: `one ${MARKER}` });
    await ok(tool, { command: 'create', path: '/memories/a.md', file_text: 'two' });
    const off = await open({ dbName: tool.dbName, history: false });
    // `history: false` records nothing from now on; what was recorded stays until cleared.
    await ok(off, { command: 'create', path: '/memories/b.md', file_text: 'b' });
    expect(await dump(tool.dbName)).toContain(MARKER);
    expect(await off.clearHistory()).toEqual({ removedChanges: 2 });
    expect(await dump(tool.dbName)).not.toContain(MARKER);
    expect(await tool.history()).toEqual([]);
    expect(await totalsProblems(tool.dbName)).toEqual([]);
  });
});
