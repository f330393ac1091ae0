// useMemorySearch with real React in the browsers: idle for a blank query, the hits rendered and rendered again after
// a write from another tool, a new query's answer replacing the old one's and never the reverse, a bad query shown
// as an error. Skipped in Node (no DOM).

import { StrictMode, createElement } from 'react';
import type { ReactElement } from 'react';
import { describe, expect } from 'vitest';
import type { MemorySearchOptions, MemorySearchSource } from '../../src/index.js';
import { useMemorySearch } from '../../src/entries/react.js';
import { freshToolEach } from '../helpers/fresh-tool.js';
import { FakeSearch, answer } from './fake-search.js';
import { nextTask } from './fake-memory.js';
import { domIt, mount } from './react-root.js';

const fresh = freshToolEach('react-hook-search');

interface Props {
  tool: MemorySearchSource;
  query: string;
  options?: MemorySearchOptions;
}

/** `<ol data-status data-query data-error>` with one `<li>` per hit: its path and first line's number. */
function Results({ tool, query, options }: Props): ReactElement {
  // An inline options object on every render, as apps write it.
  const found = useMemorySearch(tool, query, { ...options });
  const error = found.error ? ((found.error as { code?: string }).code ?? found.error.message) : '';
  return createElement(
    'ol',
    { 'data-status': found.status, 'data-query': found.query, 'data-error': error },
    found.hits.map((hit) => createElement('li', { key: hit.path }, `${hit.path}#L${hit.lines[0]?.line ?? 0}`)),
  );
}

function shown(container: HTMLElement): { status: string; query: string; error: string; hits: string[] } {
  const list = container.querySelector('ol');
  return {
    status: list?.dataset.status ?? '',
    query: list?.dataset.query ?? '',
    error: list?.dataset.error ?? '',
    hits: [...(list?.querySelectorAll('li') ?? [])].map((item) => item.textContent ?? ''),
  };
}

describe('useMemorySearch', () => {
  domIt('searches nothing for a blank query, then shows the hits and follows a write from another tool', async () => {
    await fresh.create('/memories/prefs.md', '# Drinks\nLikes green tea.\n');
    const { container, render } = await mount(createElement(Results, { tool: fresh.tool, query: '' }));
    expect(shown(container)).toEqual({ status: 'idle', query: '', error: '', hits: [] });

    await render(createElement(Results, { tool: fresh.tool, query: 'gre', options: { prefix: true } }));
    await expect.poll(() => shown(container)).toEqual({ status: 'ready', query: 'gre', error: '', hits: ['/memories/prefs.md#L2'] });
    const other = await fresh.another();
    await other.create({ command: 'create', path: '/memories/garden.md', file_text: 'Roses\nA greenhouse.\n' });
    await expect.poll(() => shown(container).hits.sort()).toEqual(['/memories/garden.md#L2', '/memories/prefs.md#L2']);

    await render(createElement(Results, { tool: fresh.tool, query: '' }));
    expect(shown(container)).toEqual({ status: 'idle', query: '', error: '', hits: [] });
  });

  domIt("shows the newer query's answer, never the older one's late answer, and aborts the older search", async () => {
    const fake = new FakeSearch();
    const { container, render } = await mount(createElement(Results, { tool: fake, query: 'te' }));
    await expect.poll(() => fake.searches.length).toBe(1);
    await render(createElement(Results, { tool: fake, query: 'tea' }));
    await expect.poll(() => fake.searches.length).toBe(2);
    expect(fake.searches[0]?.options.signal?.aborted).toBe(true);
    fake.searches[1]?.resolve(answer('/memories/tea.md'));
    await expect.poll(() => shown(container).query).toBe('tea');
    fake.searches[0]?.resolve(answer('/memories/stale.md'));
    await nextTask();
    expect(shown(container)).toMatchObject({ status: 'ready', query: 'tea', hits: ['/memories/tea.md#L1'] });
  });

  domIt('searches once, with one subscription to the tool, under StrictMode', async () => {
    const fake = new FakeSearch();
    const { container } = await mount(createElement(StrictMode, null, createElement(Results, { tool: fake, query: 'tea' })));
    await expect.poll(() => fake.searches.length).toBe(1);
    await nextTask();
    expect(fake.searches).toHaveLength(1);
    expect(fake.subscribers).toBe(1);
    fake.searches[0]?.resolve(answer('/memories/tea.md'));
    await expect.poll(() => shown(container).hits).toEqual(['/memories/tea.md#L1']);
  });

  domIt('shows a bad query as an error instead of throwing', async () => {
    const { container } = await mount(createElement(Results, { tool: fresh.tool, query: 'tea', options: { limit: 0 } }));
    await expect.poll(() => shown(container).status).toBe('error');
    expect(shown(container).error).toBe('invalid_input');
  });
});
