// When passes run: shortly after local changes, on the interval, when the page is back online, on demand; failures
// retried with backoff, refused credentials not. One tab at a time: sync-lock.test.ts; the page: page-events.test.ts.

import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IndexedDBMemoryTool } from '../../src/index.js';
import { createMemorySync } from '../../src/sync/memory-sync.js';
import { SyncRemoteError } from '../../src/sync/remote.js';
import type { SyncRemote } from '../../src/sync/remote.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { MemoryRemote } from '../helpers/memory-remote.js';
import { statusWhere } from '../helpers/sync-status.js';

const open = toolsClosedAfterEach('schedule');
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});
const HOUR = 3_600_000;

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

  it('waits 1 s, then twice as long after each failure in a row up to 5 min, and 1 s again after a success', async () => {
    // Jitter of exactly 1 and a clock that moves only when told: each wait is the policy's, to the millisecond.
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const tool = await open();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const remote = new MemoryRemote();
    const handle = remote.handle();
    let down = true;
    let lists = 0;
    const flaky: SyncRemote = { ...handle, list: async (options) => {
      lists++;
      if (down) throw new SyncRemoteError('server', 'down');
      return handle.list(options);
    } };
    const sync = createMemorySync(tool, { remote: flaky, interval: HOUR });
    await vi.advanceTimersByTimeAsync(0);
    let failed = await statusWhere(sync, (s) => s.state === 'error');
    const waits: number[] = [];
    for (let i = 0; i < 10; i++) {
      const wait = (failed.error?.retryAt?.getTime() ?? 0) - (failed.error?.at.getTime() ?? 0);
      waits.push(wait);
      const before = lists;
      // Not a moment sooner than planned, then at once: begun (syncing), or in Node failed again already.
      const at = failed.error?.at.getTime() ?? 0;
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(sync.status()).toMatchObject({ state: 'error', error: { at: new Date(at) } });
      await vi.advanceTimersByTimeAsync(1);
      const begun = sync.status();
      expect(begun.state === 'syncing' || begun.error?.at.getTime() !== at).toBe(true);
      failed = await statusWhere(sync, (s) => s.state === 'error' && (s.error?.at.getTime() ?? 0) > at);
      expect(lists).toBe(before + 1);
    }
    const second = 1_000;
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 300].map((s) => s * second));
    expect((failed.error?.retryAt?.getTime() ?? 0) - (failed.error?.at.getTime() ?? 0)).toBe(300 * second);
    // Back up: the next retry succeeds, and the failure after it starts from 1 s again.
    down = false;
    await vi.advanceTimersByTimeAsync(300 * second);
    await statusWhere(sync, (s) => s.state === 'idle' && s.error === null);
    down = true;
    await expect(sync.syncNow()).rejects.toMatchObject({ kind: 'server' });
    const again = sync.status().error;
    expect((again?.retryAt?.getTime() ?? 0) - (again?.at.getTime() ?? 0)).toBe(second);
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
