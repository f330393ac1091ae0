// The live views' core (src/react/live-read.ts) against a stand-in tool whose reads the test answers by hand:
// when reads begin, how changes coalesce, the order answers are shown in, stopping, errors, stable snapshots.

import { describe, expect, it, vi } from 'vitest';
import { MemoryToolError } from '../../src/index.js';
import type { MemoryTreeSnapshot } from '../../src/index.js';
import { createMemoryFileStore, createMemoryTreeStore } from '../../src/index.js';
import { FakeMemory, fileEntry, nextTask } from './fake-memory.js';

const write = (path: string) => ({ type: 'write' as const, path });
const paths = (snapshot: MemoryTreeSnapshot) => snapshot.entries.map((entry) => entry.path);

describe('when reads happen', () => {
  it('reads nothing when created, and once when the first listener subscribes', async () => {
    const fake = new FakeMemory();
    const store = createMemoryTreeStore(fake);
    await nextTask();
    expect(fake.lists).toHaveLength(0);
    expect(store.getSnapshot()).toMatchObject({ status: 'loading', entries: [], error: undefined });

    const seen: MemoryTreeSnapshot[] = [];
    store.subscribe((snapshot) => seen.push(snapshot));
    store.subscribe(() => undefined);
    await expect.poll(() => fake.lists.length).toBe(1);
    fake.lists[0]?.resolve([fileEntry('/memories/a.md')]);
    await expect.poll(() => store.getSnapshot().status).toBe('ready');
    expect(paths(store.getSnapshot())).toEqual(['/memories/a.md']);
    expect(seen).toEqual([store.getSnapshot()]);
    expect(fake.lists[0]?.path).toBe('/memories');
  });

  it('makes one read of a burst of 100 changes heard in one task', async () => {
    const fake = new FakeMemory();
    const store = createMemoryTreeStore(fake);
    store.subscribe(() => undefined);
    await expect.poll(() => fake.lists.length).toBe(1);
    fake.lists[0]?.resolve([]);
    await expect.poll(() => store.getSnapshot().status).toBe('ready');

    for (let i = 0; i < 100; i++) fake.emit(write(`/memories/f${i}.md`));
    await expect.poll(() => fake.lists.length).toBe(2);
    // The read began after the whole burst, so it answers for all of it: none is left for a third read.
    fake.lists[1]?.resolve([fileEntry('/memories/f0.md')]);
    await expect.poll(() => paths(store.getSnapshot())).toEqual(['/memories/f0.md']);
    await nextTask();
    expect(fake.lists).toHaveLength(2);
  });

  it('runs one read at a time: the changes heard during a read make exactly one more read, after it', async () => {
    const fake = new FakeMemory();
    const store = createMemoryTreeStore(fake);
    const seen: string[][] = [];
    store.subscribe((snapshot) => seen.push(paths(snapshot)));
    await expect.poll(() => fake.lists.length).toBe(1);
    // Changes in many tasks while the first read is out: none may start a second read beside it.
    for (let i = 0; i < 20; i++) {
      fake.emit(write(`/memories/f${i}.md`));
      await nextTask();
    }
    expect(fake.lists).toHaveLength(1);

    fake.lists[0]?.resolve([fileEntry('/memories/old.md')]);
    await expect.poll(() => fake.lists.length).toBe(2);
    fake.lists[1]?.resolve([fileEntry('/memories/new.md')]);
    await expect.poll(() => paths(store.getSnapshot())).toEqual(['/memories/new.md']);
    await nextTask();
    expect(fake.lists).toHaveLength(2);
    // Each answer shown in the order its read began, the newest last.
    expect(seen).toEqual([['/memories/old.md'], ['/memories/new.md']]);
  });

  it('ignores changes outside the folder it shows, and reads again for one inside or above it', async () => {
    const fake = new FakeMemory();
    const store = createMemoryTreeStore(fake, { path: '/memories/notes' });
    store.subscribe(() => undefined);
    await expect.poll(() => fake.lists.length).toBe(1);
    expect(fake.lists[0]?.path).toBe('/memories/notes');
    fake.lists[0]?.resolve([]);
    await expect.poll(() => store.getSnapshot().status).toBe('ready');
    const before = store.getSnapshot();

    fake.emit(write('/memories/other.md'), write('/memories/notes-old/a.md'));
    await nextTask();
    expect(fake.lists).toHaveLength(1);
    expect(store.getSnapshot()).toBe(before);

    fake.emit({ type: 'rename', path: '/memories/archive', from: '/memories' + '/notes' });
    await expect.poll(() => fake.lists.length).toBe(2);
  });
});

describe('stopping', () => {
  it('stops hearing changes when the last listener stops, and drops a read not yet begun', async () => {
    const fake = new FakeMemory();
    const store = createMemoryTreeStore(fake);
    const stopA = store.subscribe(() => undefined);
    const stopB = store.subscribe(() => undefined);
    expect(fake.subscribers).toBe(1);
    stopA();
    stopA();
    expect(fake.subscribers).toBe(1);
    stopB();
    expect(fake.subscribers).toBe(0);
    await nextTask();
    expect(fake.lists).toHaveLength(0);
  });

  it("makes one read when subscribed, stopped and subscribed again in one task (React StrictMode's double effect)", async () => {
    const fake = new FakeMemory();
    const store = createMemoryTreeStore(fake);
    const listener = vi.fn();
    store.subscribe(listener)();
    store.subscribe(listener);
    await expect.poll(() => fake.lists.length).toBe(1);
    fake.lists[0]?.resolve([fileEntry('/memories/a.md')]);
    await expect.poll(() => listener.mock.calls.length).toBe(1);
    await nextTask();
    expect(fake.lists).toHaveLength(1);
    expect(fake.subscribers).toBe(1);
  });

  it('reads afresh when subscribed again after a pause: the changes in between went unheard', async () => {
    const fake = new FakeMemory();
    const store = createMemoryTreeStore(fake);
    const stop = store.subscribe(() => undefined);
    await expect.poll(() => fake.lists.length).toBe(1);
    fake.lists[0]?.resolve([fileEntry('/memories/a.md')]);
    await expect.poll(() => store.getSnapshot().status).toBe('ready');
    stop();
    fake.emit(write('/memories/b.md'));
    await nextTask();
    expect(fake.lists).toHaveLength(1);

    store.subscribe(() => undefined);
    await expect.poll(() => fake.lists.length).toBe(2);
    fake.lists[1]?.resolve([fileEntry('/memories/a.md'), fileEntry('/memories/b.md')]);
    await expect.poll(() => paths(store.getSnapshot())).toEqual(['/memories/a.md', '/memories/b.md']);
  });

  it('stopped and subscribed again while a read is out, reads again after that read, never beside it', async () => {
    const fake = new FakeMemory();
    const store = createMemoryTreeStore(fake);
    const stop = store.subscribe(() => undefined);
    await expect.poll(() => fake.lists.length).toBe(1);
    stop();
    const seen = vi.fn();
    store.subscribe(seen);
    await nextTask();
    expect(fake.lists).toHaveLength(1);

    fake.lists[0]?.resolve([fileEntry('/memories/a.md')]);
    await expect.poll(() => fake.lists.length).toBe(2);
    fake.lists[1]?.resolve([fileEntry('/memories/a.md'), fileEntry('/memories/b.md')]);
    await expect.poll(() => paths(store.getSnapshot())).toEqual(['/memories/a.md', '/memories/b.md']);
    // The first answer, as new as any shown before it, then the one read after the pause.
    expect(seen.mock.calls.map(([snapshot]) => paths(snapshot as MemoryTreeSnapshot).length)).toEqual([1, 2]);
  });
});

describe('snapshots', () => {
  it('gives the same snapshot object until something changed, frozen', async () => {
    const fake = new FakeMemory();
    const store = createMemoryTreeStore(fake);
    const loading = store.getSnapshot();
    expect(store.getSnapshot()).toBe(loading);
    store.subscribe(() => undefined);
    await expect.poll(() => fake.lists.length).toBe(1);
    expect(store.getSnapshot()).toBe(loading);
    fake.lists[0]?.resolve([fileEntry('/memories/a.md')]);
    await expect.poll(() => store.getSnapshot()).not.toBe(loading);
    const ready = store.getSnapshot();
    expect(store.getSnapshot()).toBe(ready);
    expect(Object.isFrozen(ready) && Object.isFrozen(ready.entries)).toBe(true);
  });

  it('stays idle, reading nothing and hearing nothing, without a tool or (for a file) without a path', async () => {
    const fake = new FakeMemory();
    for (const store of [
      createMemoryTreeStore(undefined),
      createMemoryTreeStore(null),
      createMemoryFileStore(undefined, '/memories/a.md'),
      createMemoryFileStore(fake, null),
      createMemoryFileStore(fake, undefined),
    ]) {
      const idle = store.getSnapshot();
      expect(idle.status).toBe('idle');
      store.subscribe(() => undefined)();
      store.refresh();
      expect(store.getSnapshot()).toBe(idle);
    }
    await nextTask();
    expect(fake.subscribers).toBe(0);
    expect(fake.reads).toHaveLength(0);
  });

  it('keeps the file snapshot when a change above the file leaves its text as it was', async () => {
    const fake = new FakeMemory();
    const store = createMemoryFileStore(fake, '/memories/notes/a.md');
    const listener = vi.fn();
    store.subscribe(listener);
    await expect.poll(() => fake.reads.length).toBe(1);
    expect(fake.reads[0]?.path).toBe('/memories/notes/a.md');
    fake.reads[0]?.resolve('text');
    await expect.poll(() => store.getSnapshot()).toEqual({ status: 'ready', text: 'text', error: undefined });
    const ready = store.getSnapshot();

    fake.emit(write('/memories/notes'));
    await expect.poll(() => fake.reads.length).toBe(2);
    fake.reads[1]?.resolve('text');
    fake.emit(write('/memories/notes/a.md'));
    await expect.poll(() => fake.reads.length).toBe(3);
    expect(store.getSnapshot()).toBe(ready);
    expect(listener).toHaveBeenCalledTimes(1);
    fake.reads[2]?.resolve('text 2');
    await expect.poll(() => store.getSnapshot().text).toBe('text 2');
  });
});

describe('errors', () => {
  it('shows a failed read as an error, keeping the last entries, and recovers on refresh()', async () => {
    const fake = new FakeMemory();
    const store = createMemoryTreeStore(fake);
    store.subscribe(() => undefined);
    await expect.poll(() => fake.lists.length).toBe(1);
    fake.lists[0]?.resolve([fileEntry('/memories/a.md')]);
    await expect.poll(() => store.getSnapshot().status).toBe('ready');

    fake.emit(write('/memories/b.md'));
    await expect.poll(() => fake.lists.length).toBe(2);
    const failure = new MemoryToolError('storage', 'IndexedDB failed: UnknownError');
    fake.lists[1]?.reject(failure);
    await expect.poll(() => store.getSnapshot().status).toBe('error');
    expect(store.getSnapshot().error).toBe(failure);
    expect(paths(store.getSnapshot())).toEqual(['/memories/a.md']);

    store.refresh();
    await expect.poll(() => fake.lists.length).toBe(3);
    fake.lists[2]?.resolve([fileEntry('/memories/a.md'), fileEntry('/memories/b.md')]);
    await expect.poll(() => store.getSnapshot().status).toBe('ready');
    expect(store.getSnapshot().error).toBeUndefined();
  });

  it('tells a missing folder or file as missing, with no entries and no text, not as an error', async () => {
    const fake = new FakeMemory();
    const tree = createMemoryTreeStore(fake, { path: '/memories/gone' });
    const file = createMemoryFileStore(fake, '/memories/gone.md');
    tree.subscribe(() => undefined);
    file.subscribe(() => undefined);
    await expect.poll(() => fake.lists.length + fake.reads.length).toBe(2);
    fake.lists[0]?.reject(new MemoryToolError('not_found', 'The path /memories/gone does not exist.'));
    fake.reads[0]?.reject(new MemoryToolError('not_found', 'The path /memories/gone.md does not exist.'));
    await expect.poll(() => [tree.getSnapshot(), file.getSnapshot()]).toEqual([
      { status: 'missing', entries: [], error: undefined },
      { status: 'missing', text: undefined, error: undefined },
    ]);
  });

  it('turns a rejection that is not an Error into one', async () => {
    const fake = new FakeMemory();
    const store = createMemoryFileStore(fake, '/memories/a.md');
    store.subscribe(() => undefined);
    await expect.poll(() => fake.reads.length).toBe(1);
    fake.reads[0]?.reject('disk on fire');
    await expect.poll(() => store.getSnapshot().error?.message).toBe('disk on fire');
    expect(store.getSnapshot().error).toBeInstanceOf(Error);
  });

  it('calls every listener even when one throws', async () => {
    const fake = new FakeMemory();
    const store = createMemoryTreeStore(fake);
    const after = vi.fn();
    store.subscribe(() => {
      throw new Error('a broken listener');
    });
    store.subscribe(after);
    await expect.poll(() => fake.lists.length).toBe(1);
    fake.lists[0]?.resolve([]);
    await expect.poll(() => after.mock.calls.length).toBe(1);
  });
});
