// One pass per mount across tabs: two tools on one database, each with its own createMemorySync on the same remote,
// stand for two tabs (one page's Web Locks and BroadcastChannels behave as two tabs' do). In Node, one process is
// one tab: the lock is held per process, which the same tests hold to.

import { describe, expect, it } from 'vitest';
import type { IndexedDBMemoryTool } from '../../src/index.js';
import { createMemorySync } from '../../src/sync/memory-sync.js';
import type { SyncRemote } from '../../src/sync/remote.js';
import { engine } from '../helpers/engine.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { MemoryRemote } from '../helpers/memory-remote.js';
import { statusWhere } from '../helpers/sync-status.js';

const open = toolsClosedAfterEach('sync-lock');
const HOUR = 3_600_000;

const create = (tool: IndexedDBMemoryTool, path: string, text: string) =>
  tool.create({ command: 'create', path, file_text: text });

/** Counts the passes inside a remote at once, across every handle `enter` wraps (one a tab). */
class Crowd {
  inside = 0;
  most = 0;
  lists = 0;

  /** `handle` with a listing that lingers, long enough for any pass not held back to reach the remote meanwhile. */
  enter(handle: SyncRemote): SyncRemote {
    return {
      ...handle,
      list: async (options) => {
        this.lists++;
        this.most = Math.max(this.most, ++this.inside);
        try {
          await new Promise((resolve) => setTimeout(resolve, 15));
          return await handle.list(options);
        } finally {
          this.inside--;
        }
      },
    };
  }
}

/** A handle whose listing waits for `release()`; `entered` resolves once a pass is inside it. */
function gated(handle: SyncRemote): { remote: SyncRemote; entered: Promise<void>; release: () => void } {
  let release: () => void = () => undefined;
  let enter: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const entered = new Promise<void>((resolve) => (enter = resolve));
  const remote: SyncRemote = {
    ...handle,
    list: async (options) => {
      enter();
      await gate;
      return handle.list(options);
    },
  };
  return { remote, entered, release };
}

describe('one tab at a time', () => {
  it('runs one pass at a time across two tabs of a memory, however many are asked for at once', async () => {
    // The browsers' runs are about Web Locks, not the per-process stand-in.
    if (engine !== 'node') expect(navigator.locks).toBeDefined();
    const store = new MemoryRemote();
    const first = await open();
    const second = await open({ dbName: first.dbName });
    const crowd = new Crowd();
    const a = createMemorySync(first, { remote: crowd.enter(store.handle()), interval: null });
    const b = createMemorySync(second, { remote: crowd.enter(store.handle()), interval: null });
    const passes: Promise<unknown>[] = [];
    for (let i = 0; i < 6; i++) {
      passes.push(a.syncNow(), b.syncNow());
      if (i === 2) passes.push(create(first, '/memories/from-a.md', 'a'), create(second, '/memories/from-b.md', 'b'));
    }
    await Promise.all(passes);
    expect(crowd.lists).toBe(12);
    expect(crowd.most).toBe(1);
    await Promise.all([a.syncNow(), b.syncNow()]);
    expect(store.snapshot()).toEqual({ '/from-a.md': 'a', '/from-b.md': 'b' });
    a.close();
    b.close();
  });

  it('tells the tab that did not sync the result: its report, its time, the conflicts it made', async () => {
    const store = new MemoryRemote();
    await store.put('/notes.md', 'base');
    const first = await open();
    const second = await open({ dbName: first.dbName });
    const a = createMemorySync(first, { remote: store.handle(), interval: null });
    const b = createMemorySync(second, { remote: store.handle(), interval: null });
    await a.syncNow();
    await statusWhere(b, (s) => s.lastReport !== null);
    await create(first, '/memories/notes.md', 'mine');
    await statusWhere(b, (s) => s.pending === 1);
    await store.put('/notes.md', 'theirs', store.files.get('/notes.md')?.id);
    const lists = store.count('list');
    const report = await a.syncNow();
    expect(report.conflicts).toEqual(['/memories/notes.md']);
    const heard = await statusWhere(b, (s) => s.lastReport?.conflicts.length === 1 && s.conflicts.length === 1);
    // b ran no pass of its own (interval null, no syncNow): all it knows, it heard from a.
    expect(store.count('list')).toBe(lists + 1);
    expect(heard.lastReport).toEqual(report);
    expect(heard.lastSync?.getTime()).toBe(a.status().lastSync?.getTime());
    expect(heard.conflicts).toEqual(a.status().conflicts);
    expect(heard.state).toBe('idle');
    // b heard of a's edit as a local change, pending; a carried it, so it is pending no more.
    await expect.poll(() => b.status().pending).toBe(0);
    a.close();
    b.close();
  });

  it('has a background pass that finds the mount taken wait as other-tab, hear the result, and try again later', async () => {
    const store = new MemoryRemote();
    const first = await open();
    const second = await open({ dbName: first.dbName });
    const held = gated(store.handle());
    const a = createMemorySync(first, { remote: held.remote, interval: null });
    const passA = a.syncNow();
    await held.entered;
    // a holds the mount now; b's first background pass starts at once and finds it taken.
    const mine = new Crowd();
    const b = createMemorySync(second, { remote: mine.enter(store.handle()), interval: 30 });
    await statusWhere(b, (s) => s.state === 'other-tab');
    expect(mine.lists).toBe(0);
    held.release();
    const report = await passA;
    const heard = await statusWhere(b, (s) => s.lastReport !== null);
    expect(heard.lastReport).toEqual(report);
    expect(heard.state).not.toBe('other-tab');
    // b keeps its own background passes: with a done (or its tab closed), b syncs the mount by itself.
    a.close();
    await store.put('/later.md', 'later');
    await statusWhere(b, (s) => s.lastReport?.pulled.includes('/memories/later.md') === true);
    expect(mine.lists).toBeGreaterThan(0);
    b.close();
  });

  it('leaves the same mount of another memory alone: its lock is its own', async () => {
    const store = new MemoryRemote();
    const held = gated(store.handle());
    const a = createMemorySync(await open(), { remote: held.remote, interval: null });
    const passA = a.syncNow();
    await held.entered;
    const b = createMemorySync(await open(), { remote: store.handle(), interval: HOUR });
    await statusWhere(b, (s) => s.lastSync !== null);
    held.release();
    await passA;
    a.close();
    b.close();
  });
});
