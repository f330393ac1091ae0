// When passes run: shortly after local changes, on the interval, when the page is back online, on demand; one tab
// of a memory at a time, the others told the result; failures retried with backoff, refused credentials not.

import { describe, expect, it } from 'vitest';
import type { IndexedDBMemoryTool } from '../../src/index.js';
import { createMemorySync } from '../../src/sync/memory-sync.js';
import type { MemorySync } from '../../src/sync/memory-sync.js';
import { SyncRemoteError } from '../../src/sync/remote.js';
import type { SyncRemote } from '../../src/sync/remote.js';
import type { SyncStatus } from '../../src/sync/sync-status.js';
import { engine } from '../helpers/engine.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { MemoryRemote } from '../helpers/memory-remote.js';

const open = toolsClosedAfterEach('schedule');
const HOUR = 3_600_000;

/** Resolves with the first status that passes `test` (the current one included). */
function statusWhere(sync: MemorySync, test: (status: SyncStatus) => boolean): Promise<SyncStatus> {
  return new Promise((resolve) => {
    if (test(sync.status())) return resolve(sync.status());
    const stop = sync.subscribe((status) => {
      if (!test(status)) return;
      stop();
      resolve(status);
    });
  });
}

const create = (tool: IndexedDBMemoryTool, path: string, text: string) =>
  tool.create({ command: 'create', path, file_text: text });

describe('background passes', () => {
  it('start on creation, then send a local change shortly after it is made', async () => {
    const remote = new MemoryRemote();
    const tool = await open();
    const sync = createMemorySync(tool, { remote: remote.handle(), interval: HOUR, debounce: 5 });
    await statusWhere(sync, (s) => s.lastSync !== null);
    await create(tool, '/memories/a.md', 'a');
    expect(sync.status().pending).toBeGreaterThan(0);
    await statusWhere(sync, (s) => s.lastReport?.pushed.includes('/memories/a.md') === true);
    expect(remote.snapshot()).toEqual({ '/a.md': 'a' });
    expect(sync.status().pending).toBe(0);
    sync.close();
  });

  it('run on the interval and bring what changed there', async () => {
    const remote = new MemoryRemote();
    const tool = await open();
    const sync = createMemorySync(tool, { remote: remote.handle(), interval: 10 });
    await statusWhere(sync, (s) => s.lastSync !== null);
    await remote.put('/later.md', 'later');
    await statusWhere(sync, (s) => s.lastReport?.pulled.includes('/memories/later.md') === true);
    expect(await tool.read('/memories/later.md')).toBe('later');
    sync.close();
  });

  it('do not run with interval null: only syncNow does', async () => {
    const remote = new MemoryRemote();
    const tool = await open();
    const sync = createMemorySync(tool, { remote: remote.handle(), interval: null, debounce: 0 });
    await create(tool, '/memories/a.md', 'a');
    // A pass run now on demand is the first one: nothing ran by itself before it.
    await sync.syncNow();
    expect(remote.count('list')).toBe(1);
    sync.close();
  });

  it.skipIf(engine === 'node')('run when the browser comes back online (skipped in Node: no online event)', async () => {
    const remote = new MemoryRemote();
    const tool = await open();
    const sync = createMemorySync(tool, { remote: remote.handle(), interval: HOUR });
    await statusWhere(sync, (s) => s.lastSync !== null);
    const first = sync.status().lastSync;
    await remote.put('/back.md', 'back');
    globalThis.dispatchEvent(new Event('online'));
    await statusWhere(sync, (s) => s.lastSync !== first && s.state === 'idle');
    expect(await tool.read('/memories/back.md')).toBe('back');
    sync.close();
  });
});

describe('one tab at a time', () => {
  it('lets a second tab of the same memory wait while one syncs, and tells it the result', async () => {
    const remote = new MemoryRemote();
    const handle = remote.handle();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const held: SyncRemote = { ...handle, list: async (options) => {
      await gate;
      return handle.list(options);
    } };
    const first = await open();
    const second = await open({ dbName: first.dbName });
    const a = createMemorySync(first, { remote: held, interval: null });
    const b = createMemorySync(second, { remote: handle, interval: HOUR });
    const passA = a.syncNow();
    // b's first background pass finds the lock taken (unless it got there first, when a waits for it instead).
    const waited = await Promise.race([
      statusWhere(b, (s) => s.state === 'other-tab').then(() => 'b waited'),
      statusWhere(b, (s) => s.lastSync !== null).then(() => 'b synced first'),
    ]);
    release();
    await passA;
    if (waited === 'b waited') await statusWhere(b, (s) => s.lastSync !== null);
    expect(b.status().lastReport).not.toBeNull();
    a.close();
    b.close();
  });
});

describe('failures', () => {
  it('retries a failed background pass with backoff, and clears the error once it succeeds', async () => {
    const remote = new MemoryRemote();
    remote.failNext = { call: 'list', error: new SyncRemoteError('server', 'down for a moment') };
    const tool = await open();
    const sync = createMemorySync(tool, { remote: remote.handle(), interval: HOUR });
    const failed = await statusWhere(sync, (s) => s.state === 'error');
    expect(failed.error).toMatchObject({ kind: 'server', message: 'down for a moment' });
    expect(failed.error?.retryAt?.getTime()).toBeGreaterThan(failed.error?.at.getTime() ?? 0);
    const recovered = await statusWhere(sync, (s) => s.lastSync !== null);
    expect(recovered.error).toBeNull();
    sync.close();
  });

  it('does not retry refused credentials by itself', async () => {
    const remote = new MemoryRemote();
    remote.failNext = { call: 'list', error: new SyncRemoteError('auth', 'wrong password', { status: 401 }) };
    const tool = await open();
    const sync = createMemorySync(tool, { remote: remote.handle(), interval: HOUR });
    const failed = await statusWhere(sync, (s) => s.state === 'error');
    expect(failed.error).toMatchObject({ kind: 'auth', retryAt: null });
    sync.close();
  });

  it('refuses bad options before anything runs', async () => {
    const tool = await open();
    const remote = new MemoryRemote().handle();
    expect(() => createMemorySync(tool, { remote, interval: -1 })).toThrow(TypeError);
    expect(() => createMemorySync(tool, { remote, mount: '/elsewhere' })).toThrow(/memories/u);
    expect(() => createMemorySync({} as IndexedDBMemoryTool, { remote })).toThrow(TypeError);
  });
});
