// The live search (createMemorySearchStore) over a real tool: the matching files with their marked lines, found again
// after a write here and one from another tool on the database (as from another tab), a bad query as an error.

import { describe, expect, it, onTestFinished } from 'vitest';
import type { MemorySearchStore } from '../../src/index.js';
import { createMemorySearchStore } from '../../src/index.js';
import { freshToolEach } from '../helpers/fresh-tool.js';

const fresh = freshToolEach('react-search');

function following(store: MemorySearchStore): MemorySearchStore {
  onTestFinished(store.subscribe(() => undefined));
  return store;
}

const paths = (store: MemorySearchStore): string[] => store.getSnapshot().hits.map((hit) => hit.path);

describe('createMemorySearchStore on a real tool', () => {
  it('finds the matching files with their marked lines, and follows writes here and from another tool', async () => {
    await fresh.create('/memories/prefs.md', '# Drinks\nLikes green tea.\n');
    await fresh.create('/memories/other.md', 'Nothing here.\n');
    const store = following(createMemorySearchStore(fresh.tool, 'gree', { prefix: true }));
    await expect.poll(() => store.getSnapshot().status).toBe('ready');
    expect(store.getSnapshot().hits).toMatchObject([{ path: '/memories/prefs.md', lines: [{ line: 2, text: 'Likes green tea.', marks: [[6, 11]] }] }]);

    await fresh.create('/memories/garden.md', 'A greenhouse.\n');
    await expect.poll(() => paths(store).sort()).toEqual(['/memories/garden.md', '/memories/prefs.md']);
    const other = await fresh.another();
    await other.delete({ command: 'delete', path: '/memories/prefs.md' });
    await expect.poll(() => paths(store)).toEqual(['/memories/garden.md']);
    expect(store.getSnapshot().total).toBe(1);
  });

  it('searches the new query when it is set, and shows a bad one as an error with its code', async () => {
    await fresh.create('/memories/a.md', 'Café crème\n');
    const store = following(createMemorySearchStore(fresh.tool, 'tea'));
    await expect.poll(() => store.getSnapshot()).toMatchObject({ status: 'ready', query: 'tea', total: 0 });
    store.setQuery('cafe creme');
    await expect.poll(() => paths(store)).toEqual(['/memories/a.md']);
    store.setQuery('tea', { path: '/memories/nowhere' });
    await expect.poll(() => store.getSnapshot().status).toBe('error');
    expect(store.getSnapshot()).toMatchObject({ query: 'tea', hits: [], error: { code: 'not_found' } });
  });
});
