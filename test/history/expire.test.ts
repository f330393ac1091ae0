// Expiry: files not read or written since a time are deleted (journaled, so undoable); a view refreshes the
// access time only when it is stale, so reading stays cheap.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IndexedDBMemoryTool } from '../../src/index.js';
import { ACCESS_GRANULARITY_MS } from '../../src/storage/schema.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import type { RequestSpy } from '../helpers/request-spy.js';
import { spyDuring, spyOnRequests } from '../helpers/request-spy.js';

let tool: IndexedDBMemoryTool;
const open = toolsClosedAfterEach('expire');
beforeEach(async () => {
  tool = await open();
});
afterEach(() => {
  vi.useRealTimers();
});

const DAY = 24 * 60 * 60 * 1000;
/** The puts a spy saw: an access time written is one. */
const puts = (spy: RequestSpy): string[] => spy.asked.filter((one) => one.method === 'put').map((one) => one.store);
const exists = async (path: string) => !(await tool.run({ command: 'view', path })).is_error;

/** Fakes `Date` from 2026-01-01 on and returns that time. */
function startClock(): number {
  vi.useFakeTimers({ toFake: ['Date'] });
  const start = new Date('2026-01-01T00:00:00Z').getTime();
  vi.setSystemTime(start);
  return start;
}

/** What another tool on the database expires: it has only the stored access times, none of `tool`'s own views. */
async function expiredByAnotherTool(olderThan: number): Promise<string[]> {
  const other = await IndexedDBMemoryTool.init({ dbName: tool.dbName });
  try {
    return (await other.expire({ olderThan })).deleted;
  } finally {
    other.close();
  }
}

describe('expire', () => {
  it('deletes files neither read nor written since olderThan, keeping recent ones and folders', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    await tool.run({ command: 'create', path: '/memories/old/unused.md', file_text: 'x' });
    await tool.run({ command: 'create', path: '/memories/old/read.md', file_text: 'x' });
    await tool.run({ command: 'create', path: '/memories/written.md', file_text: 'x' });
    vi.setSystemTime(new Date('2026-03-01T00:00:00Z'));
    await tool.run({ command: 'view', path: '/memories/old/read.md' });
    await tool.run({ command: 'insert', path: '/memories/written.md', insert_line: 0, insert_text: 'y' });

    const report = await tool.expire({ olderThan: 30 * DAY });
    expect(report.deleted).toEqual(['/memories/old/unused.md']);
    expect(await exists('/memories/old/unused.md')).toBe(false);
    expect(await exists('/memories/old/read.md')).toBe(true);
    expect(await exists('/memories/written.md')).toBe(true);
    expect(await exists('/memories/old')).toBe(true);
  });

  it('counts this tool\'s own views exactly, also within the hour a stored access time may lag', async () => {
    const start = startClock();
    await tool.run({ command: 'create', path: '/memories/read.md', file_text: 'r' });
    await tool.run({ command: 'create', path: '/memories/unread.md', file_text: 'u' });
    vi.setSystemTime(start + 50 * 60_000);
    // Read 50 minutes in: under ACCESS_GRANULARITY_MS after its write, so no access time is stored for it.
    await tool.run({ command: 'view', path: '/memories//read.md' });
    vi.setSystemTime(start + 60 * 60_000);
    expect(await tool.expire({ olderThan: 30 * 60_000 })).toEqual({ deleted: ['/memories/unread.md'] });

    // Another tool on the same database has only the stored times: there the read does not show (the undo brought
    // unread.md back as used now).
    await tool.undo();
    expect(await expiredByAnotherTool(30 * 60_000)).toEqual(['/memories/read.md']);
  });

  it('counts a view called before it as a read, though it has not answered yet', async () => {
    const start = startClock();
    await tool.run({ command: 'create', path: '/memories/a.md', file_text: 'a' });
    vi.setSystemTime(start + 10 * DAY);
    await IndexedDBMemoryTool.preload();
    const viewed = tool.run({ command: 'view', path: '/memories/a.md' });
    const report = await tool.expire({ olderThan: DAY });
    expect((await viewed).is_error).toBe(false);
    expect(report).toEqual({ deleted: [] });
  });

  it('follows a file this tool viewed and then renamed, alone or in its folder, and back by an undo', async () => {
    const start = startClock();
    await tool.run({ command: 'create', path: '/memories/a.md', file_text: 'a' });
    await tool.run({ command: 'create', path: '/memories/dir/b.md', file_text: 'b' });
    await tool.run({ command: 'create', path: '/memories/unread.md', file_text: 'u' });
    // Viewed 50 minutes in (no access time is stored yet), then moved.
    vi.setSystemTime(start + 50 * 60_000);
    await tool.run({ command: 'view', path: '/memories/a.md' });
    await tool.run({ command: 'view', path: '/memories//dir/b.md' });
    await tool.run({ command: 'rename', old_path: '/memories/a.md', new_path: '/memories/moved/a.md' });
    await tool.run({ command: 'rename', old_path: '/memories/dir', new_path: '/memories/dir2' });
    vi.setSystemTime(start + 60 * 60_000);
    expect(await tool.expire({ olderThan: 30 * 60_000 })).toEqual({ deleted: ['/memories/unread.md'] });

    // Undoing the folder's rename takes its views back to where its files are again (undoing the expiry first
    // brings unread.md back as used now).
    await tool.undo();
    const [folderRename] = (await tool.history()).filter((entry) => entry.command === 'rename');
    expect(folderRename?.paths).toEqual(['/memories/dir', '/memories/dir2']);
    await tool.undo(folderRename?.id);
    expect(await tool.read('/memories/dir/b.md')).toBe('b');
    expect(await tool.expire({ olderThan: 30 * 60_000 })).toEqual({ deleted: [] });
  });

  it('does not count a view of a deleted file for another file renamed to its path', async () => {
    const start = startClock();
    await tool.run({ command: 'create', path: '/memories/x.md', file_text: 'x' });
    await tool.run({ command: 'create', path: '/memories/old.md', file_text: 'old' });
    vi.setSystemTime(start + 50 * 60_000);
    await tool.run({ command: 'view', path: '/memories/x.md' });
    await tool.run({ command: 'delete', path: '/memories/x.md' });
    await tool.run({ command: 'rename', old_path: '/memories/old.md', new_path: '/memories/x.md' });
    vi.setSystemTime(start + 60 * 60_000);
    expect(await tool.expire({ olderThan: 30 * 60_000 })).toEqual({ deleted: ['/memories/x.md'] });
  });

  it('counts a view by the file it read, with a rename called just before or after it (not awaited)', async () => {
    const start = startClock();
    await IndexedDBMemoryTool.preload();
    await tool.run({ command: 'create', path: '/memories/a.md', file_text: 'a' });
    await tool.run({ command: 'create', path: '/memories/c.md', file_text: 'c' });
    await tool.run({ command: 'create', path: '/memories/e.md', file_text: 'e' });
    vi.setSystemTime(start + 50 * 60_000);
    // A rename, then a view of its new path called before it answered: the view reads the moved file.
    const first = [
      tool.run({ command: 'rename', old_path: '/memories/a.md', new_path: '/memories/b.md' }),
      tool.run({ command: 'view', path: '/memories/b.md' }),
    ];
    // A view, then a rename called before the expiry's turn: the expiry finds the file read under its new path.
    await tool.run({ command: 'view', path: '/memories/c.md' });
    // A rename, then a view of the old path: it fails, and reads nothing.
    const second = [
      tool.run({ command: 'rename', old_path: '/memories/e.md', new_path: '/memories/f.md' }),
      tool.run({ command: 'view', path: '/memories/e.md' }),
    ];
    expect((await Promise.all([...first, ...second])).map((r) => r.is_error)).toEqual([false, false, false, true]);
    vi.setSystemTime(start + 60 * 60_000);
    const renamed = tool.run({ command: 'rename', old_path: '/memories/c.md', new_path: '/memories/d.md' });
    const report = await tool.expire({ olderThan: 30 * 60_000 });
    expect((await renamed).is_error).toBe(false);
    expect(report).toEqual({ deleted: ['/memories/f.md'] });
  });

  it('stores the access time of a view on the file it read, wherever a rename called at once takes it', async () => {
    const start = startClock();
    await tool.run({ command: 'create', path: '/memories/a.md', file_text: 'a' });
    await tool.run({ command: 'create', path: '/memories/x.md', file_text: 'x' });
    await tool.run({ command: 'create', path: '/memories/old.md', file_text: 'old' });
    vi.setSystemTime(start + 2 * DAY);
    const done = [
      // Read before the rename, its access time written after it: it belongs to b.md.
      tool.run({ command: 'view', path: '/memories/a.md' }),
      tool.run({ command: 'rename', old_path: '/memories/a.md', new_path: '/memories/b.md' }),
      // Read before the delete, its access time written after old.md took its place: not old.md's.
      tool.run({ command: 'view', path: '/memories/x.md' }),
      tool.run({ command: 'delete', path: '/memories/x.md' }),
      tool.run({ command: 'rename', old_path: '/memories/old.md', new_path: '/memories/x.md' }),
    ];
    expect((await Promise.all(done)).map((r) => r.is_error)).toEqual([false, false, false, false, false]);
    await tool.flushAccess();
    // Another tool has only the stored times.
    expect(await expiredByAnotherTool(DAY)).toEqual(['/memories/x.md']);
  });

  it('accepts a Date and is journaled as one undoable change', async () => {
    const start = startClock();
    await tool.run({ command: 'create', path: '/memories/a.md', file_text: 'a' });
    await tool.run({ command: 'create', path: '/memories/b.md', file_text: 'b' });
    vi.setSystemTime(start + DAY);
    const report = await tool.expire({ olderThan: new Date(start + 1000) });
    expect(report.deleted.sort()).toEqual(['/memories/a.md', '/memories/b.md']);
    const [latest] = await tool.history();
    expect(latest).toMatchObject({ actor: 'expire', command: 'expire' });
    await tool.undo();
    expect(await exists('/memories/a.md')).toBe(true);
    expect(await exists('/memories/b.md')).toBe(true);
  });

  it('does nothing and records nothing when no file is old enough', async () => {
    await tool.run({ command: 'create', path: '/memories/a.md', file_text: 'a' });
    expect(await tool.expire({ olderThan: DAY })).toEqual({ deleted: [] });
    expect((await tool.history()).map((h) => h.command)).toEqual(['create']);
  });

  it('counts a file an import or an undo brings in as used then, whenever it was last edited', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    await tool.run({ command: 'create', path: '/memories/restored.md', file_text: 'old' });
    vi.setSystemTime(new Date('2026-03-01T00:00:00Z'));
    // An import keeps the file's own times (edited in 2024), and an undo its times before the change (January).
    const content = 'imported';
    const sha256 = [...new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(content)))]
      .map((b) => b.toString(16).padStart(2, '0'))
      .join('');
    const at = '2024-05-06T07:08:09.010Z';
    await tool.importBundle(
      JSON.stringify({ format: 'claude-memory-bundle', version: 1, exportedAt: at, files: [{ path: '/memories/imported.md', content, createdAt: at, updatedAt: at, sha256 }], folders: [] }),
    );
    await tool.run({ command: 'create', path: '/memories/restored.md', file_text: 'new' });
    await tool.undo();
    expect(await tool.expire({ olderThan: 30 * DAY })).toEqual({ deleted: [] });
    // (Read only now: a view counts as a use too.)
    expect(await tool.read('/memories/restored.md')).toBe('old');
  });

  it('refuses an olderThan that is not a Date or a number', async () => {
    await expect(tool.expire({ olderThan: Number.NaN })).rejects.toThrow(TypeError);
  });

  it('refuses a negative age, which would delete every file, and deletes nothing', async () => {
    await tool.run({ command: 'create', path: '/memories/a.md', file_text: 'a' });
    await expect(tool.expire({ olderThan: -5 })).rejects.toThrow(/0 or more/);
    expect(await exists('/memories/a.md')).toBe(true);
    expect((await tool.history()).map((entry) => entry.command)).toEqual(['create']);
  });

  it('refuses anything but a past Date or an age of 0 ms or more with a TypeError, and deletes nothing', async () => {
    const start = startClock();
    await tool.run({ command: 'create', path: '/memories/a.md', file_text: 'a' });
    await tool.run({ command: 'create', path: '/memories/d/b.md', file_text: 'b' });
    // Both files are ten days old: any cutoff from a day ago on would take them.
    vi.setSystemTime(start + 10 * DAY);
    const refused: Array<[unknown, RegExp]> = [
      // A string of a negative age: `now - '-86400000'` is a day ahead.
      ['-86400000', /got the string "-86400000"/],
      [new Date(start + 11 * DAY), /got 2026-01-12T00:00:00\.000Z, a time in the future/],
      [null, /got null/],
      [[], /got an array/],
      [Number.NaN, /got NaN/],
      [Number.POSITIVE_INFINITY, /got Infinity/],
      [-DAY, /got -86400000/],
      [new Date(Number.NaN), /got an invalid Date/],
    ];
    for (const [olderThan, why] of refused) {
      const attempt = tool.expire({ olderThan: olderThan as number });
      await expect(attempt).rejects.toThrow(TypeError);
      await expect(attempt).rejects.toThrow(/olderThan must be a Date in the past or a number of milliseconds, 0 or more/);
      await expect(attempt, String(olderThan)).rejects.toThrow(why);
    }
    expect((await tool.list()).map((entry) => entry.path)).toEqual(['/memories/a.md', '/memories/d', '/memories/d/b.md']);
    expect((await tool.history()).map((entry) => entry.command)).toEqual(['create', 'create']);
    // A Date of now, and an age of 0, are the limits allowed.
    expect(await tool.expire({ olderThan: new Date(start + 10 * DAY) })).toEqual({ deleted: ['/memories/a.md', '/memories/d/b.md'] });
    await tool.undo();
    expect(await tool.expire({ olderThan: 0 })).toEqual({ deleted: [] });
  });
});

describe('access times', () => {
  it('stores the access time of every view, also of one that read while the last one was being written', async () => {
    const start = startClock();
    await tool.run({ command: 'create', path: '/memories/x.md', file_text: 'x' });
    await tool.run({ command: 'create', path: '/memories/y.md', file_text: 'y' });
    vi.setSystemTime(start + 2 * DAY);
    // Two views at once (Claude's parallel tool calls): the second reads while the first one's access time is written.
    await Promise.all([tool.run({ command: 'view', path: '/memories/x.md' }), tool.run({ command: 'view', path: '/memories/y.md' })]);
    await tool.flushAccess();
    expect(await expiredByAnotherTool(DAY)).toEqual([]);
  });

  it('keeps the access times of views that answered when the tool is closed at once', async () => {
    const start = startClock();
    await tool.run({ command: 'create', path: '/memories/x.md', file_text: 'x' });
    await tool.run({ command: 'create', path: '/memories/y.md', file_text: 'y' });
    vi.setSystemTime(start + 2 * DAY);
    await Promise.all([tool.run({ command: 'view', path: '/memories/x.md' }), tool.run({ command: 'view', path: '/memories/y.md' })]);
    tool.close();
    expect(await expiredByAnotherTool(DAY)).toEqual([]);
  });

  it('writes no access time for a view of a file written within the period, however long ago it was last viewed', async () => {
    const start = startClock();
    await tool.run({ command: 'create', path: '/memories/a.md', file_text: 'a' });
    vi.setSystemTime(start + 2 * DAY);
    await tool.run({ command: 'view', path: '/memories/a.md' });
    await tool.flushAccess();
    vi.setSystemTime(start + 4 * DAY);
    await tool.run({ command: 'insert', path: '/memories/a.md', insert_line: 0, insert_text: 'b' });
    vi.setSystemTime(start + 4 * DAY + 10 * 60_000);
    const spy = await spyDuring(async () => {
      await tool.run({ command: 'view', path: '/memories/a.md' });
      await tool.flushAccess();
    });
    expect(puts(spy)).toEqual([]);
  });

  it('writes an access time at most once per granularity period, however often a file is viewed', async () => {
    const start = startClock();
    await tool.run({ command: 'create', path: '/memories/a.md', file_text: 'a' });
    const spy = spyOnRequests();
    try {
      for (let i = 0; i < 20; i++) await tool.run({ command: 'view', path: '/memories/a.md' });
      await tool.flushAccess();
      expect(puts(spy)).toHaveLength(0);
      vi.setSystemTime(start + ACCESS_GRANULARITY_MS + 1);
      for (let i = 0; i < 20; i++) await tool.run({ command: 'view', path: '/memories/a.md' });
      await tool.flushAccess();
      expect(puts(spy)).toHaveLength(1);
      for (let i = 0; i < 20; i++) await tool.run({ command: 'view', path: '/memories/a.md' });
      await tool.flushAccess();
      expect(puts(spy)).toHaveLength(1);
    } finally {
      spy.restore();
    }
  });
});
