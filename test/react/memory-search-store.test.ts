// The live search (createMemorySearchStore) against a stand-in whose searches the test answers by hand: nothing
// searched for a blank query, a search again after a change that reaches the scope, a replaced query's search
// aborted and its late answer never shown, changes during a search making one more after it, errors in the snapshot.

import { describe, expect, it, onTestFinished } from 'vitest';
import type { MemorySearchSnapshot, MemorySearchStore } from '../../src/index.js';
import { MemoryToolError, createMemorySearchStore } from '../../src/index.js';
import { FakeSearch, answer } from './fake-search.js';
import { nextTask } from './fake-memory.js';

/** Subscribes to `store` for the test, recording each snapshot it sends. */
function following(store: MemorySearchStore): MemorySearchSnapshot[] {
  const sent: MemorySearchSnapshot[] = [];
  onTestFinished(store.subscribe((snapshot) => sent.push(snapshot)));
  return sent;
}

const paths = (snapshot: MemorySearchSnapshot): string[] => snapshot.hits.map((hit) => hit.path);

describe('createMemorySearchStore', () => {
  it('searches nothing for a blank query or without a tool, and shows idle', async () => {
    const fake = new FakeSearch();
    const blank = createMemorySearchStore(fake, '   ');
    following(blank);
    const none = createMemorySearchStore(undefined, 'tea');
    following(none);
    await nextTask();
    fake.emit({ type: 'write', path: '/memories/a.md' });
    await nextTask();
    expect(fake.searches).toHaveLength(0);
    expect(blank.getSnapshot()).toEqual({ status: 'idle', query: '   ', hits: [], total: 0, error: undefined });
    expect(none.getSnapshot().status).toBe('idle');
  });

  it('searches only while subscribed, shows the answer, and searches again after a change in its scope only', async () => {
    const fake = new FakeSearch();
    const store = createMemorySearchStore(fake, 'tea', { path: '/memories/prefs', prefix: true });
    await nextTask();
    expect(fake.searches).toHaveLength(0);
    following(store);
    await nextTask();
    expect(fake.searches.map((s) => [s.query, s.options.path, s.options.prefix])).toEqual([['tea', '/memories/prefs', true]]);
    expect(store.getSnapshot().status).toBe('loading');
    fake.searches[0]?.resolve(answer('/memories/prefs/a.md'));
    await expect.poll(() => store.getSnapshot().status).toBe('ready');
    expect(paths(store.getSnapshot())).toEqual(['/memories/prefs/a.md']);

    fake.emit({ type: 'write', path: '/memories/other/b.md' });
    await nextTask();
    expect(fake.searches).toHaveLength(1);
    fake.emit({ type: 'write', path: '/memories/prefs/b.md' });
    await nextTask();
    expect(fake.searches).toHaveLength(2);
    fake.searches[1]?.resolve(answer('/memories/prefs/a.md', '/memories/prefs/b.md'));
    await expect.poll(() => paths(store.getSnapshot())).toEqual(['/memories/prefs/a.md', '/memories/prefs/b.md']);
  });

  it("aborts the search of a replaced query and never shows its late answer, keeping the last answer until the new one's", async () => {
    const fake = new FakeSearch();
    const store = createMemorySearchStore(fake, 'gr');
    following(store);
    await nextTask();
    fake.searches[0]?.resolve(answer('/memories/gr.md'));
    await expect.poll(() => store.getSnapshot().query).toBe('gr');
    store.setQuery('gre', { prefix: true });
    await nextTask();
    store.setQuery('green', { prefix: true });
    await nextTask();
    expect(fake.searches.map((s) => s.query)).toEqual(['gr', 'gre', 'green']);
    expect(fake.searches[1]?.options.signal?.aborted).toBe(true);
    expect(fake.searches[2]?.options.signal?.aborted).toBe(false);
    // The previous answer stays while the new query is searched.
    expect(store.getSnapshot()).toMatchObject({ status: 'ready', query: 'gr' });
    fake.searches[2]?.resolve(answer('/memories/green.md'));
    fake.searches[1]?.resolve(answer('/memories/stale.md'));
    await expect.poll(() => store.getSnapshot().query).toBe('green');
    await nextTask();
    expect(paths(store.getSnapshot())).toEqual(['/memories/green.md']);
  });

  it('makes the changes heard during a search into one more search after it, without aborting it', async () => {
    const fake = new FakeSearch();
    const store = createMemorySearchStore(fake, 'tea');
    following(store);
    await nextTask();
    for (let i = 0; i < 5; i++) fake.emit({ type: 'write', path: `/memories/${i}.md` });
    await nextTask();
    expect(fake.searches).toHaveLength(1);
    expect(fake.searches[0]?.options.signal?.aborted).toBe(false);
    fake.searches[0]?.resolve(answer('/memories/0.md'));
    await expect.poll(() => fake.searches.length).toBe(2);
    fake.searches[1]?.resolve(answer('/memories/0.md', '/memories/4.md'));
    await expect.poll(() => store.getSnapshot().total).toBe(2);
    await nextTask();
    expect(fake.searches).toHaveLength(2);
  });

  it('shows idle at once for a blank query, aborting the search under way', async () => {
    const fake = new FakeSearch();
    const store = createMemorySearchStore(fake, 'tea');
    following(store);
    await nextTask();
    store.setQuery('');
    expect(store.getSnapshot()).toMatchObject({ status: 'idle', query: '', hits: [] });
    expect(fake.searches[0]?.options.signal?.aborted).toBe(true);
  });

  it('aborts the search under way when the last listener leaves, and searches afresh when one comes back', async () => {
    const fake = new FakeSearch();
    const store = createMemorySearchStore(fake, 'tea');
    const stop = store.subscribe(() => undefined);
    await nextTask();
    stop();
    expect(fake.searches[0]?.options.signal?.aborted).toBe(true);
    expect(fake.subscribers).toBe(0);
    following(store);
    await nextTask();
    expect(fake.searches).toHaveLength(2);
  });

  it('puts a failed search in the snapshot, keeping the hits of the same query only, and recovers', async () => {
    const fake = new FakeSearch();
    const store = createMemorySearchStore(fake, 'tea');
    following(store);
    await nextTask();
    fake.searches[0]?.resolve(answer('/memories/tea.md'));
    await expect.poll(() => store.getSnapshot().status).toBe('ready');
    fake.emit({ type: 'write', path: '/memories/tea.md' });
    await nextTask();
    fake.searches[1]?.reject(new MemoryToolError('storage', 'The disk is full.'));
    await expect.poll(() => store.getSnapshot().status).toBe('error');
    expect(paths(store.getSnapshot())).toEqual(['/memories/tea.md']);

    store.setQuery('"unclosed');
    await nextTask();
    fake.searches[2]?.reject('not an Error');
    await expect.poll(() => store.getSnapshot().query).toBe('"unclosed');
    expect(store.getSnapshot()).toMatchObject({ status: 'error', hits: [], total: 0 });
    expect(store.getSnapshot().error).toBeInstanceOf(Error);

    store.setQuery('tea');
    await nextTask();
    fake.searches[3]?.resolve(answer('/memories/tea.md'));
    await expect.poll(() => store.getSnapshot().status).toBe('ready');
  });
});
