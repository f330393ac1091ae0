// History and undo: every change is journaled with who/what/when, undo reverses exactly one change when it
// applies cleanly, and the history stays within its bounds without leaking bodies.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDB } from 'idb';
import { IndexedDBMemoryTool } from '../../src/index.js';
import { freshDbName, toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { exportedSnapshot } from '../helpers/tool-calls.js';

let tool: IndexedDBMemoryTool;
const open = toolsClosedAfterEach('undo');
beforeEach(async () => {
  tool = await open();
});

const run = async (input: Record<string, unknown>, on = tool) => {
  const result = await on.run(input);
  expect(result.is_error, result.content).toBe(false);
  return result.content;
};
const text = async (path: string, on = tool): Promise<string | undefined> => {
  const result = await on.run({ command: 'view', path });
  return result.is_error ? undefined : result.content.split('\n').slice(1).map((l) => l.slice(7)).join('\n');
};
const listing = (on = tool) => on.run({ command: 'view', path: '/memories' }).then((r) => r.content);

/** How many records `store` of the database holds (the journal's hidden ones included), read directly. */
async function storeCount(name: string, store: 'bodies' | 'journal'): Promise<number> {
  const db = await openDB(name);
  try {
    return await db.count(store);
  } finally {
    db.close();
  }
}
/** Bodies, to prove none leak. */
const bodyCount = (name: string): Promise<number> => storeCount(name, 'bodies');
const journalCount = (name: string): Promise<number> => storeCount(name, 'journal');

describe('history', () => {
  it('journals each change with actor, command, paths and time, newest first', async () => {
    const before = Date.now();
    await run({ command: 'create', path: '/memories/a.md', file_text: 'one' });
    await tool.run({ command: 'rename', old_path: '/memories/a.md', new_path: '/memories/b.md' }, { actor: 'user' });
    await tool.run({ command: 'view', path: '/memories/b.md' });
    await tool.run({ command: 'delete', path: '/memories/missing' });
    const history = await tool.history();
    expect(history.map(({ actor, command, paths }) => ({ actor, command, paths }))).toEqual([
      { actor: 'user', command: 'rename', paths: ['/memories/a.md', '/memories/b.md'] },
      { actor: 'claude', command: 'create', paths: ['/memories/a.md'] },
    ]);
    expect(history[1]?.at.getTime()).toBeGreaterThanOrEqual(before);
    expect(await tool.history({ actor: 'user' })).toHaveLength(1);
  });

  it('refuses history bounds that are not positive integers before opening, and defaults one left undefined', async () => {
    await expect(IndexedDBMemoryTool.init({ dbName: freshDbName('undo'), history: { maxEntries: Number.NaN } })).rejects.toThrow(
      new TypeError('history.maxEntries must be a positive integer, got NaN'),
    );
    await expect(IndexedDBMemoryTool.init({ dbName: freshDbName('undo'), history: { maxBytes: 0 } })).rejects.toThrow(TypeError);
    const loose = await open({ history: { maxEntries: 10, maxBytes: undefined } as never });
    await run({ command: 'create', path: '/memories/a.md', file_text: 'a' }, loose);
    await run({ command: 'create', path: '/memories/a.md', file_text: 'b' }, loose);
    expect((await loose.history()).map((entry) => entry.undoable)).toEqual([true, true]);
  });

  it('journals the paths as their keys, however Claude spelled them', async () => {
    await run({ command: 'create', path: '/memories//notes/./a.md/', file_text: 'a' });
    await run({ command: 'rename', old_path: '/memories/notes//a.md', new_path: '/memories/./b.md' });
    expect((await tool.history()).map((entry) => entry.paths)).toEqual([
      ['/memories/notes/a.md', '/memories/b.md'],
      ['/memories/notes/a.md'],
    ]);
  });

  it('shows each file before and after a change, for a diff', async () => {
    await run({ command: 'create', path: '/memories/a.md', file_text: 'one\ntwo' });
    await run({ command: 'str_replace', path: '/memories/a.md', old_str: 'two', new_str: 'three' });
    const [latest] = await tool.history();
    expect(await tool.change(latest?.id ?? -1)).toMatchObject({
      command: 'str_replace',
      files: [{ path: '/memories/a.md', before: 'one\ntwo', after: 'one\nthree' }],
    });
  });

  it('keeps only the last maxEntries changes and releases the bodies only they held', async () => {
    const small = await open({ history: { maxEntries: 3 } });
    await run({ command: 'create', path: '/memories/a.md', file_text: 'v0' }, small);
    for (let i = 1; i <= 10; i++) await run({ command: 'create', path: '/memories/a.md', file_text: `v${i}` }, small);
    const history = await small.history();
    expect(history).toHaveLength(3);
    // The live body plus the three replaced bodies the remaining entries hold.
    expect(await bodyCount(small.dbName)).toBe(4);
  });

  it('prunes a full history a tenth at a time, never keeping more than maxEntries', async () => {
    const small = await open({ history: { maxEntries: 20 } });
    const sizes: number[] = [];
    for (let i = 0; i < 45; i++) {
      await run({ command: 'create', path: '/memories/a.md', file_text: `v${i}` }, small);
      sizes.push((await small.history({ limit: 100 })).length);
    }
    expect(Math.max(...sizes)).toBe(20);
    expect(sizes.slice(20)).toContain(18);
    expect(Math.min(...sizes.slice(20))).toBe(18);
    // The newest change is always kept and is undoable.
    expect((await small.history({ limit: 1 }))[0]).toMatchObject({ command: 'create', undoable: true });
  });

  it('prunes a tenth below maxBytes once over it, so a full history is not pruned on every write', async () => {
    // The bound counts each record (about 460 bytes here) with the old contents it keeps (1,000 bytes): some 68 fit.
    const small = await open({ history: { maxBytes: 100_000 } });
    const kept: number[] = [];
    const stored: number[] = [];
    await run({ command: 'create', path: '/memories/a.md', file_text: 'x'.repeat(1000) }, small);
    for (let i = 0; i < 100; i++) {
      // Each overwrite retires the previous 1,000 bytes.
      await run({ command: 'create', path: '/memories/a.md', file_text: String(i % 10).repeat(1000) }, small);
      const db = await openDB(small.dbName);
      const journal = (await db.getAll('journal')) as Array<{ bytes: number; hidden?: true }>;
      db.close();
      kept.push(journal.filter((record) => !record.hidden).length);
      stored.push(journal.reduce((sum, record) => sum + record.bytes, 0));
    }
    expect(Math.max(...stored)).toBeLessThanOrEqual(100_000);
    // A write that takes the journal over the bound prunes it to a tenth below (90,000 bytes), which leaves room for
    // several writes before the next pruning; pruning only down to the bound would prune on every write.
    const prunings = kept.flatMap((count, i) => (i > 0 && count <= (kept[i - 1] ?? 0) ? [i] : []));
    expect(prunings.length).toBeGreaterThanOrEqual(3);
    for (const i of prunings) expect(stored[i]).toBeLessThanOrEqual(90_000);
    for (const [a, b] of prunings.slice(1).map((at, n) => [prunings[n] ?? 0, at] as const)) expect(b - a).toBeGreaterThanOrEqual(5);
    // The live body plus one per kept entry: no body leaks.
    expect(await bodyCount(small.dbName)).toBe(1 + (kept.at(-1) ?? 0));
  });

  it('keeps a body that the pruned entries and the new entry both hold', async () => {
    const small = await open({ history: { maxEntries: 3 } });
    await run({ command: 'create', path: '/memories/a.md', file_text: 'v0' }, small);
    await run({ command: 'create', path: '/memories/a.md', file_text: 'v1' }, small);
    await small.undo(); // v0's body is live again, and still held by the change it undid
    // This retires v0's body again and overflows the history: the pruning drops the change that held it too.
    await run({ command: 'create', path: '/memories/a.md', file_text: 'v2' }, small);
    expect((await small.history({ limit: 10 })).map((entry) => entry.command)).toEqual(['create', 'undo']);
    await small.undo();
    expect(await text('/memories/a.md', small)).toBe('v0');
  });

  it('keeps the totals right across tools with the history on and off, and shows no totals record', async () => {
    const name = freshDbName('undo');
    const on = await open({ dbName: name, limits: { maxFiles: 3 } });
    await run({ command: 'create', path: '/memories/a.md', file_text: 'a' }, on);
    const off = await open({ dbName: name, history: false, limits: { maxFiles: 3 } });
    await run({ command: 'create', path: '/memories/b.md', file_text: 'b' }, off);
    await run({ command: 'create', path: '/memories/c.md', file_text: 'c' }, on);
    // Three files, counted by whichever tool wrote them: a fourth is refused by both.
    for (const tool of [on, off]) {
      expect((await tool.run({ command: 'create', path: '/memories/d.md', file_text: 'd' })).content).toMatch(/limit of 3 files/u);
    }
    await run({ command: 'delete', path: '/memories/b.md' }, off);
    await run({ command: 'create', path: '/memories/d.md', file_text: 'd' }, on);
    expect((await on.history()).map((entry) => `${entry.command} ${entry.paths.join()}`)).toEqual([
      'create /memories/d.md',
      'create /memories/c.md',
      'create /memories/a.md',
    ]);
  });

  it('drops the contents of a change bigger than maxBytes and says it cannot be undone', async () => {
    // The create's record fits; the delete's, with the 2,000 bytes it would keep, does not.
    const small = await open({ history: { maxBytes: 1000 } });
    await run({ command: 'create', path: '/memories/a.md', file_text: 'x'.repeat(2000) }, small);
    await run({ command: 'delete', path: '/memories/a.md' }, small);
    const [latest, created] = await small.history();
    expect(created).toMatchObject({ command: 'create', undoable: true });
    expect(latest).toMatchObject({ command: 'delete', undoable: false });
    // Its steps are kept, without the text.
    expect(await small.change(latest?.id ?? 0)).toMatchObject({ files: [{ path: '/memories/a.md', before: null, after: null }] });
    await expect(small.undo(latest?.id)).rejects.toMatchObject({ code: 'conflict', message: expect.stringMatching(/too large/) });
    expect(await bodyCount(small.dbName)).toBe(0);
  });

  it('answers an undo with its own entry, or one with id 0 from a tool that keeps no history', async () => {
    const name = freshDbName('undo');
    const on = await open({ dbName: name });
    await run({ command: 'create', path: '/memories/a.md', file_text: 'a' }, on);
    await run({ command: 'create', path: '/memories/b.md', file_text: 'b' }, on);
    const [ofB, ofA] = await on.history();
    const undone = await on.undo();
    expect(undone).toMatchObject({ actor: 'user', command: 'undo', undoOf: ofB?.id, paths: ['/memories/b.md'], undoable: true, undone: false });
    expect((await on.history({ limit: 1 }))[0]).toEqual(undone);
    // A tool with no history can undo what another journaled; its own undo is not journaled.
    const off = await open({ dbName: name, history: false });
    const unjournaled = await off.undo(ofA?.id);
    expect(unjournaled).toMatchObject({ id: 0, actor: 'user', command: 'undo', undoOf: ofA?.id, paths: ['/memories/a.md'], undoable: false });
    expect(await text('/memories/a.md', on)).toBeUndefined();
    expect((await on.history()).map((entry) => entry.command)).toEqual(['undo', 'create', 'create']);
  });

  it('keeps no history and no old bodies with history: false', async () => {
    const none = await open({ history: false });
    await run({ command: 'create', path: '/memories/a.md', file_text: 'one' }, none);
    await run({ command: 'str_replace', path: '/memories/a.md', old_str: 'one', new_str: 'two' }, none);
    await run({ command: 'create', path: '/memories/d/b.md', file_text: 'b' }, none);
    await run({ command: 'delete', path: '/memories/d' }, none);
    expect(await none.history()).toEqual([]);
    expect(await bodyCount(none.dbName)).toBe(1);
    // The totals of all four writes end in one record, each write's replacing the last: nothing piles up with no history.
    expect(await journalCount(none.dbName)).toBe(1);
  });
});

/** A bundle of `files` (path → text) and empty `folders`, with their digests, as the import wants it. */
async function bundleOf(files: Record<string, string>, folders: string[] = []): Promise<string> {
  const at = '2024-05-06T07:08:09.010Z';
  const digest = async (text: string) =>
    [...new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))].map((b) => b.toString(16).padStart(2, '0')).join('');
  const list = await Promise.all(Object.entries(files).map(async ([path, content]) => ({ path, content, createdAt: at, updatedAt: at, sha256: await digest(content) })));
  return JSON.stringify({ format: 'claude-memory-bundle', version: 1, exportedAt: at, files: list, folders });
}

describe('undo of a change that removed folders', () => {
  afterEach(() => vi.useRealTimers());
  const folders = async () =>
    (await tool.list()).filter((entry) => entry.kind === 'folder').map((entry) => [entry.path, entry.createdAt.toISOString(), entry.updatedAt.toISOString()]);

  it.each(['a delete', 'a replace import'])('brings them back with their own times after %s, and again after an undo of the undo', async (how) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    await run({ command: 'create', path: '/memories/d/e/f.md', file_text: 'f' });
    await run({ command: 'create', path: '/memories/d/empty/.keep', file_text: '' });
    const before = await folders();
    vi.setSystemTime(new Date('2026-02-01T00:00:00Z'));
    if (how === 'a delete') await run({ command: 'delete', path: '/memories/d' });
    else await tool.importBundle(await bundleOf({ '/memories/other.md': 'o' }), { mode: 'replace' });
    vi.setSystemTime(new Date('2026-03-01T00:00:00Z'));
    await tool.undo();
    expect(await folders()).toEqual(before);
    // Undo the undo (the folders go again), then that one (they come back once more).
    const [undid] = await tool.history({ limit: 1 });
    await tool.undo(undid?.id);
    const [redid] = await tool.history({ limit: 1 });
    await tool.undo(redid?.id);
    expect(await folders()).toEqual(before);
  });
});

describe('undo of a rename or a folder delete, checked against what is there now', () => {
  const snapshot = () => exportedSnapshot(tool);
  /** Entries whose parent folder is missing (or a file): none may ever be left. */
  const orphans = async () => {
    const all = await tool.list();
    const folders = new Set(['/memories', ...all.filter((entry) => entry.kind === 'folder').map((entry) => entry.path)]);
    return all.filter((entry) => !folders.has(entry.path.slice(0, entry.path.lastIndexOf('/')))).map((entry) => entry.path);
  };
  const latest = async () => (await tool.history({ limit: 1 }))[0]?.id;
  const refusesCleanly = async (id: number | undefined, path: string) => {
    const before = await snapshot();
    await expect(tool.undo(id)).rejects.toMatchObject({
      code: 'conflict',
      message: `Change ${id} cannot be undone cleanly: ${path} has changed since. Nothing was changed.`,
    });
    expect(await snapshot()).toBe(before);
    expect((await tool.history()).find((entry) => entry.id === id)?.undone).toBe(false);
  };

  it('refuses to move back a file written at the new path since, not the one the rename moved', async () => {
    await run({ command: 'create', path: '/memories/a.md', file_text: 'old' });
    await run({ command: 'rename', old_path: '/memories/a.md', new_path: '/memories/b.md' });
    const renamed = await latest();
    await run({ command: 'delete', path: '/memories/b.md' });
    await run({ command: 'create', path: '/memories/b.md', file_text: 'new' });
    await refusesCleanly(renamed, '/memories/b.md');
  });

  it('refuses to move back a file edited since, and a folder where a file now is', async () => {
    await run({ command: 'create', path: '/memories/a.md', file_text: 'old' });
    await run({ command: 'rename', old_path: '/memories/a.md', new_path: '/memories/b.md' });
    const file = await latest();
    await run({ command: 'str_replace', path: '/memories/b.md', old_str: 'old', new_str: 'edited' });
    await refusesCleanly(file, '/memories/b.md');

    await run({ command: 'create', path: '/memories/d/x.md', file_text: 'x' });
    await run({ command: 'rename', old_path: '/memories/d', new_path: '/memories/e' });
    const folder = await latest();
    await run({ command: 'delete', path: '/memories/e' });
    await run({ command: 'create', path: '/memories/e', file_text: 'a file now' });
    await refusesCleanly(folder, '/memories/e');
  });

  it('moves a folder back with what was written in it since', async () => {
    await run({ command: 'create', path: '/memories/d/x.md', file_text: 'x' });
    await run({ command: 'rename', old_path: '/memories/d', new_path: '/memories/e' });
    const renamed = await latest();
    await run({ command: 'create', path: '/memories/e/later.md', file_text: 'later' });
    await tool.undo(renamed);
    expect(await text('/memories/d/later.md')).toBe('later');
    expect(await text('/memories/d/x.md')).toBe('x');
  });

  it('makes the folder a moved file came from when it has been deleted since, and its undo takes it away again', async () => {
    await run({ command: 'create', path: '/memories/d/a.md', file_text: 'a' });
    await run({ command: 'rename', old_path: '/memories/d/a.md', new_path: '/memories/b.md' });
    const renamed = await latest();
    await run({ command: 'delete', path: '/memories/d' });
    const before = await listing();
    await tool.undo(renamed);
    expect(await orphans()).toEqual([]);
    expect(await listing()).toContain('/memories/d/a.md');
    expect(await text('/memories/d/a.md')).toBe('a');
    await tool.undo(await latest());
    expect(await listing()).toBe(before);
  });

  it('refuses to move a file back below what is a file now', async () => {
    await run({ command: 'create', path: '/memories/d/a.md', file_text: 'a' });
    await run({ command: 'rename', old_path: '/memories/d/a.md', new_path: '/memories/b.md' });
    const renamed = await latest();
    await run({ command: 'delete', path: '/memories/d' });
    await run({ command: 'create', path: '/memories/d', file_text: 'a file now' });
    await refusesCleanly(renamed, '/memories/d');
  });

  it('refuses to move a folder back where its files would be nested too deep, changing nothing', async () => {
    const deep = Array.from({ length: 29 }, (_, i) => `d${i}`).join('/');
    await run({ command: 'create', path: '/memories/x/y/a/keep.md', file_text: 'k' });
    await run({ command: 'rename', old_path: '/memories/x/y/a', new_path: '/memories/a' });
    const renamed = await latest();
    // 31 levels here, 33 back at /memories/x/y/a.
    await run({ command: 'create', path: `/memories/a/${deep}/f.md`, file_text: 'deep' });
    const before = await snapshot();
    await expect(tool.undo(renamed)).rejects.toMatchObject({
      code: 'invalid_path',
      message: `Change ${renamed} cannot be undone: /memories/x/y/a/${deep}/f.md would be nested more than 32 levels deep. Nothing was changed.`,
    });
    expect(await snapshot()).toBe(before);
  });

  it('makes the folders above a folder it brings back, deleted since', async () => {
    await run({ command: 'create', path: '/memories/x/y/a.md', file_text: 'a' });
    await run({ command: 'delete', path: '/memories/x/y/a.md' });
    await run({ command: 'delete', path: '/memories/x/y' });
    const deleted = await latest();
    await run({ command: 'delete', path: '/memories/x' });
    await tool.undo(deleted);
    expect(await orphans()).toEqual([]);
    expect((await tool.list()).map((entry) => entry.path)).toEqual(['/memories/x', '/memories/x/y']);
  });

  it('refuses to bring back a folder where a file is now', async () => {
    await run({ command: 'create', path: '/memories/e/a.md', file_text: 'a' });
    await run({ command: 'delete', path: '/memories/e/a.md' });
    await run({ command: 'delete', path: '/memories/e' });
    const deleted = await latest();
    await run({ command: 'create', path: '/memories/e', file_text: 'a file now' });
    await refusesCleanly(deleted, '/memories/e');
  });

  it('takes away again, on an undo of its undo, the folders an undone delete had to make for its file', async () => {
    await run({ command: 'create', path: '/memories/d/a.md', file_text: 'a' });
    await run({ command: 'delete', path: '/memories/d/a.md' });
    const deleted = await latest();
    await run({ command: 'delete', path: '/memories/d' });
    const before = await listing();
    await tool.undo(deleted);
    expect(await text('/memories/d/a.md')).toBe('a');
    await tool.undo(await latest());
    expect(await listing()).toBe(before);
  });
});

describe('undo: what it tells subscribers of folders, and the per-file limit', () => {
  const heard = (on: IndexedDBMemoryTool) => {
    const changes: unknown[] = [];
    on.subscribe((event) => changes.push(...event.changes));
    return changes;
  };

  it('announces the folders an undo takes away with a create it undoes', async () => {
    await run({ command: 'create', path: '/memories/notes/a.md', file_text: 'a' });
    const changes = heard(tool);
    await tool.undo();
    expect(await tool.list()).toEqual([]);
    expect(changes).toEqual([
      { type: 'delete', path: '/memories/notes/a.md' },
      { type: 'delete', path: '/memories/notes' },
    ]);
  });

  it('announces an empty folder it brings back, and the folders it makes above a file it brings back', async () => {
    await run({ command: 'create', path: '/memories/keep/x.md', file_text: 'x' });
    await run({ command: 'delete', path: '/memories/keep/x.md' });
    const fileDeleted = (await tool.history({ limit: 1 }))[0]?.id;
    await run({ command: 'delete', path: '/memories/keep' });
    const changes = heard(tool);
    await tool.undo();
    expect(changes).toEqual([{ type: 'write', path: '/memories/keep' }]);

    await run({ command: 'delete', path: '/memories/keep' });
    changes.length = 0;
    await tool.undo(fileDeleted);
    expect(changes).toEqual([
      { type: 'write', path: '/memories/keep' },
      { type: 'write', path: '/memories/keep/x.md' },
    ]);
  });

  it('announces the folders an undone import of folders takes away, as the import announced them', async () => {
    const changes = heard(tool);
    await tool.importBundle(await bundleOf({}, ['/memories/empty']));
    expect(changes).toEqual([{ type: 'write', path: '/memories/empty' }]);
    changes.length = 0;
    await tool.undo();
    expect(await tool.list()).toEqual([]);
    expect(changes).toEqual([{ type: 'delete', path: '/memories/empty' }]);
  });

  it('refuses to bring back a file over the per-file limit, as a create or an import of it is refused', async () => {
    await run({ command: 'create', path: '/memories/big.md', file_text: 'x'.repeat(100) });
    await run({ command: 'delete', path: '/memories/big.md' });
    const deleted = (await tool.history({ limit: 1 }))[0]?.id;
    const small = await open({ dbName: tool.dbName, limits: { maxFileBytes: 10 } });
    await expect(small.undo()).rejects.toMatchObject({
      code: 'too_large',
      message: `Undoing change ${deleted} would put the memory over its limits. Nothing was changed.`,
    });
    expect(await small.list()).toEqual([]);
    expect((await small.history({ limit: 1 }))[0]).toMatchObject({ id: deleted, undone: false });
  });
});

describe('undo of a change that put a folder where a file was', () => {
  it.each([
    ['a file below it', { '/memories/a/b.md': 'child' }, []],
    ['the folder alone', {}, ['/memories/a']],
  ])('brings the file back after a replace import with %s', async (_case, files, folders) => {
    await run({ command: 'create', path: '/memories/a', file_text: 'I was a file' });
    const before = await exportedSnapshot(tool);
    await tool.importBundle(await bundleOf(files, folders), { mode: 'replace' });
    await tool.undo();
    expect(await exportedSnapshot(tool)).toBe(before);
    expect(await text('/memories/a')).toBe('I was a file');
  });

  it('refuses, changing nothing, when something was written in that folder since', async () => {
    await run({ command: 'create', path: '/memories/a', file_text: 'I was a file' });
    await tool.importBundle(await bundleOf({ '/memories/a/b.md': 'child' }), { mode: 'replace' });
    const [imported] = await tool.history({ limit: 1 });
    await run({ command: 'create', path: '/memories/a/later.md', file_text: 'written since' });
    const before = await exportedSnapshot(tool);
    await expect(tool.undo(imported?.id)).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('/memories/a') as unknown });
    expect(await exportedSnapshot(tool)).toBe(before);
  });
});

describe('undo', () => {
  it('undoes an edit, a create over a file, a delete of a folder and a rename, latest first', async () => {
    await run({ command: 'create', path: '/memories/notes/a.md', file_text: 'original' });
    await run({ command: 'create', path: '/memories/notes/sub/b.md', file_text: 'bee' });
    const start = await listing();
    await run({ command: 'str_replace', path: '/memories/notes/a.md', old_str: 'original', new_str: 'edited' });
    await run({ command: 'create', path: '/memories/notes/a.md', file_text: 'overwritten' });
    await run({ command: 'rename', old_path: '/memories/notes', new_path: '/memories/moved/notes' });
    await run({ command: 'delete', path: '/memories/moved' });
    expect(await listing()).not.toContain('notes');

    await tool.undo(); // the delete
    expect(await text('/memories/moved/notes/sub/b.md')).toBe('bee');
    await tool.undo(); // the rename
    expect(await text('/memories/notes/a.md')).toBe('overwritten');
    await tool.undo(); // the create over the file: safe now
    expect(await text('/memories/notes/a.md')).toBe('edited');
    await tool.undo(); // the edit
    expect(await text('/memories/notes/a.md')).toBe('original');
    expect(await listing()).toBe(start);
  });

  it('undoes a create of a new file, removing the folders it made', async () => {
    const empty = await listing();
    await run({ command: 'create', path: '/memories/x/y/z.md', file_text: 'z' });
    await tool.undo();
    expect(await listing()).toBe(empty);
  });

  it('journals the undo itself, which can be undone in turn', async () => {
    await run({ command: 'create', path: '/memories/a.md', file_text: 'one' });
    await run({ command: 'str_replace', path: '/memories/a.md', old_str: 'one', new_str: 'two' });
    const undo = await tool.undo();
    expect(undo).toMatchObject({ actor: 'user', command: 'undo' });
    expect(await text('/memories/a.md')).toBe('one');
    await tool.undo(undo.id);
    expect(await text('/memories/a.md')).toBe('two');
    const history = await tool.history();
    expect(history.find((h) => h.command === 'str_replace')?.undone).toBe(true);
  });

  it('undoes a chosen older change when it applies cleanly', async () => {
    await run({ command: 'create', path: '/memories/a.md', file_text: 'a1' });
    await run({ command: 'create', path: '/memories/b.md', file_text: 'b1' });
    const [, first] = await tool.history();
    await run({ command: 'create', path: '/memories/b.md', file_text: 'b2' });
    await tool.undo(first?.id);
    expect(await text('/memories/a.md')).toBeUndefined();
    expect(await text('/memories/b.md')).toBe('b2');
  });

  it('refuses an undo that would overwrite a later change, changing nothing', async () => {
    await run({ command: 'create', path: '/memories/a.md', file_text: 'one' });
    await run({ command: 'str_replace', path: '/memories/a.md', old_str: 'one', new_str: 'two' });
    const [edit] = await tool.history();
    await run({ command: 'insert', path: '/memories/a.md', insert_line: 1, insert_text: 'three' });
    await expect(tool.undo(edit?.id)).rejects.toMatchObject({
      code: 'conflict',
      message: `Change ${edit?.id} cannot be undone cleanly: /memories/a.md has changed since. Nothing was changed.`,
    });
    expect(await text('/memories/a.md')).toBe('two\nthree');
    expect((await tool.history()).some((h) => h.undone)).toBe(false);
  });

  it('refuses to undo twice, an unknown change, and an empty history', async () => {
    await expect(tool.undo()).rejects.toMatchObject({ code: 'not_found', message: 'There is no change left to undo.' });
    await run({ command: 'create', path: '/memories/a.md', file_text: 'one' });
    const [created] = await tool.history();
    await tool.undo();
    await expect(tool.undo(created?.id)).rejects.toMatchObject({ message: `Change ${created?.id} has already been undone.` });
    await expect(tool.undo(999)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('tells subscribers what the undo changed', async () => {
    await run({ command: 'create', path: '/memories/a.md', file_text: 'one' });
    const events: unknown[] = [];
    const stop = tool.subscribe((event) => events.push(event.changes));
    await tool.undo();
    stop();
    expect(events).toEqual([[{ type: 'delete', path: '/memories/a.md' }]]);
  });
});
