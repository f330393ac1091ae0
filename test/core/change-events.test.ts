// ChangeHub: listeners of this tool hear each change at once as `local`; other hubs of the same database (other
// tabs, workers, tools) hear it a task later through a BroadcastChannel as `remote`; and a closed hub keeps no
// channel open.
// Runs in Node (its BroadcastChannel) and in each browser project.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChangeHub } from '../../src/core/change-events.js';
import type { MemoryChange, MemoryChangeEvent } from '../../src/core/change-events.js';
import { freshDbName } from '../helpers/fresh-tool.js';

/** The channels open right now, whoever opened them. */
const openChannels = new Set<BroadcastChannel>();
/** The channels told not to keep a Node process alive (Node's `unref`; browsers have none, so it is added here). */
const unrefed = new Set<BroadcastChannel>();
const RealChannel = globalThis.BroadcastChannel;
class TrackedChannel extends RealChannel {
  constructor(name: string) {
    super(name);
    openChannels.add(this);
  }
  override close(): void {
    openChannels.delete(this);
    super.close();
  }
  unref(): void {
    unrefed.add(this);
    (RealChannel.prototype as { unref?: () => void }).unref?.call(this);
  }
}

const hubs: ChangeHub[] = [];
let dbName: string;
function hub(name = dbName): ChangeHub {
  const made = new ChangeHub(name);
  hubs.push(made);
  return made;
}
beforeEach(() => {
  vi.stubGlobal('BroadcastChannel', TrackedChannel);
  dbName = freshDbName('events');
});
afterEach(() => {
  for (const made of hubs.splice(0)) made.close();
  vi.unstubAllGlobals();
  openChannels.clear();
  unrefed.clear();
});

const write = (path: string): MemoryChange[] => [{ type: 'write', path }];

/** Every event `on` hears, and a promise for the next one that names `path`. */
function listen(on: ChangeHub): { events: MemoryChangeEvent[]; next: (path: string) => Promise<MemoryChangeEvent> } {
  const events: MemoryChangeEvent[] = [];
  const waiting: Array<{ path: string; resolve: (event: MemoryChangeEvent) => void }> = [];
  on.subscribe((event) => {
    events.push(event);
    for (const wait of waiting.filter((w) => event.changes.some((change) => change.path === w.path))) wait.resolve(event);
  });
  return {
    events,
    next: (path) =>
      new Promise((resolve, reject) => {
        const found = events.find((event) => event.changes.some((change) => change.path === path));
        if (found) return resolve(found);
        waiting.push({ path, resolve });
        setTimeout(() => reject(new Error(`no event for ${path}`)), 60_000);
      }),
  };
}

describe('ChangeHub', () => {
  it('tells its own listeners at once as local, and the other hubs of the database as remote', async () => {
    const mine = hub();
    const other = hub();
    const elsewhere = hub(`${dbName}-other`);
    const here = listen(mine);
    const there = listen(other);
    const apart = listen(elsewhere);
    mine.publish(write('/memories/a.md'));
    // Synchronously: a listener can update the page before the command's promise settles.
    expect(here.events).toEqual([{ dbName, changes: write('/memories/a.md'), source: 'local' }]);
    expect(await there.next('/memories/a.md')).toEqual({ dbName, changes: write('/memories/a.md'), source: 'remote' });
    // The other way round; then the publisher has heard only its own change, once, as local (never its own as remote).
    other.publish(write('/memories/b.md'));
    expect(await here.next('/memories/b.md')).toMatchObject({ source: 'remote' });
    expect(here.events.map((event) => event.source)).toEqual(['local', 'remote']);
    expect(apart.events).toEqual([]);
  });

  it('tells the others when it has no listeners of its own, and announces nothing for no changes', async () => {
    const quiet = hub();
    const there = listen(hub());
    quiet.publish([]);
    quiet.publish(write('/memories/a.md'));
    expect(await there.next('/memories/a.md')).toMatchObject({ source: 'remote' });
    expect(there.events).toHaveLength(1);
  });

  it('calls every listener even when one throws', () => {
    const mine = hub();
    const heard: string[] = [];
    mine.subscribe(() => {
      throw new Error('a bug in the app');
    });
    mine.subscribe((event) => heard.push(event.changes[0]?.path ?? ''));
    expect(() => mine.publish(write('/memories/a.md'))).not.toThrow();
    expect(heard).toEqual(['/memories/a.md']);
  });

  it('stops listening when the last listener goes, and hears again when one comes back', async () => {
    const mine = hub();
    const other = hub();
    const heard: string[] = [];
    const stop = mine.subscribe((event) => heard.push(event.changes[0]?.path ?? ''));
    stop();
    other.publish(write('/memories/unheard.md'));
    // Heard by a hub that listens: delivered, so the one that stopped had its chance.
    const witness = listen(hub());
    other.publish(write('/memories/witnessed.md'));
    await witness.next('/memories/witnessed.md');
    expect(heard).toEqual([]);
    const again = listen(mine);
    other.publish(write('/memories/heard.md'));
    expect(await again.next('/memories/heard.md')).toMatchObject({ source: 'remote' });
  });

  it('posts to the others a task later, not before the command can answer; posts of one task go in order', async () => {
    const sender = hub();
    const there = listen(hub());
    const listening = openChannels.size;
    sender.publish(write('/memories/a.md'));
    sender.publish(write('/memories/b.md'));
    // Nothing sent yet: the sending channel is opened when the posts go out.
    expect(openChannels.size).toBe(listening);
    await there.next('/memories/b.md');
    expect(there.events.map((event) => event.changes[0]?.path)).toEqual(['/memories/a.md', '/memories/b.md']);
    expect(openChannels.size).toBe(listening + 1);
  });

  it('queues the post as a message to itself, not a timer (a timer costs a write in Firefox more): timers held, it still goes', async () => {
    const sender = hub();
    const there = listen(hub());
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      sender.publish(write('/memories/a.md'));
      sender.publish(write('/memories/b.md'));
      await there.next('/memories/b.md');
    } finally {
      vi.useRealTimers();
    }
    expect(there.events.map((event) => event.changes[0]?.path)).toEqual(['/memories/a.md', '/memories/b.md']);
  });

  it('does not keep a Node process alive for its channels, sending or listening', async () => {
    const sender = hub();
    const there = listen(hub());
    sender.publish(write('/memories/a.md'));
    // Heard there: the sending channel is open.
    await there.next('/memories/a.md');
    expect(openChannels.size).toBe(2);
    expect(unrefed).toEqual(openChannels);
  });

  it('after close: still tells the others of a change that committed, but keeps no channel open and hears nothing', async () => {
    const closing = hub();
    const there = listen(hub());
    const heard: MemoryChangeEvent[] = [];
    closing.subscribe((event) => heard.push(event));
    closing.publish(write('/memories/before.md'));
    const open = openChannels.size;
    closing.close();
    expect(openChannels.size).toBe(open - 1);
    // A write that was under way when the tool closed commits and is announced afterwards.
    closing.publish(write('/memories/after.md'));
    expect(await there.next('/memories/after.md')).toMatchObject({ source: 'remote' });
    const stop = closing.subscribe((event) => heard.push(event));
    stop();
    closing.publish(write('/memories/later.md'));
    await there.next('/memories/later.md');
    expect(openChannels.size).toBe(open - 1);
    expect(heard.map((event) => event.changes[0]?.path)).toEqual(['/memories/before.md']);
  });
});
