// useMemoryTree with real React (react-dom/client) in the browsers: renders the tree and re-renders after writes,
// waits for a tool being opened, one subscription and one read under StrictMode, unsubscribes on unmount, and never
// shows the late answer of a tool it has left. Node has no DOM: skipped there, saying so.

import { StrictMode, createElement } from 'react';
import { afterEach, describe, expect, vi } from 'vitest';
import type { MemoryTreeSnapshot, MemoryTreeSource } from '../../src/index.js';
import type { WithRefresh } from '../../src/entries/react.js';
import { freshToolEach } from '../helpers/fresh-tool.js';
import { Tree, shownTree } from './components.js';
import { FakeMemory, fileEntry, nextTask } from './fake-memory.js';
import { domIt, mount } from './react-root.js';

const fresh = freshToolEach('react-hook-tree');

/** The tool, counting the hook's subscriptions (live and in all) and its reads. */
function counted(): MemoryTreeSource & { live: number; subscribed: number; lists: number } {
  const source = {
    live: 0,
    subscribed: 0,
    lists: 0,
    subscribe: (listener: Parameters<MemoryTreeSource['subscribe']>[0]) => {
      source.live++;
      source.subscribed++;
      const stop = fresh.tool.subscribe(listener);
      return () => {
        source.live--;
        stop();
      };
    },
    list: (path?: string) => {
      source.lists++;
      return fresh.tool.list(path);
    },
  };
  return source;
}

let consoleError: ReturnType<typeof vi.spyOn>;
afterEach(() => {
  consoleError?.mockRestore();
});

describe('useMemoryTree', () => {
  domIt('renders the tree, then re-renders after a write here and after one by another tool on the database', async () => {
    await fresh.create('/memories/a.md', 'a');
    const { container } = await mount(createElement(Tree, { tool: fresh.tool }));
    await expect.poll(() => shownTree(container)).toEqual({ status: 'ready', paths: ['/memories/a.md'] });

    await fresh.create('/memories/notes/b.md', 'b');
    await expect.poll(() => shownTree(container).paths).toEqual(['/memories/a.md', '/memories/notes', '/memories/notes/b.md']);
    const other = await fresh.another();
    await other.delete({ command: 'delete', path: '/memories/a.md' });
    await expect.poll(() => shownTree(container).paths).toEqual(['/memories/notes', '/memories/notes/b.md']);
  });

  domIt('shows idle while the app is still opening the tool, then the tree once it is passed in', async () => {
    await fresh.create('/memories/a.md', 'a');
    const { container, render } = await mount(createElement(Tree, { tool: undefined }));
    expect(shownTree(container)).toEqual({ status: 'idle', paths: [] });
    await render(createElement(Tree, { tool: null }));
    expect(shownTree(container)).toEqual({ status: 'idle', paths: [] });
    await render(createElement(Tree, { tool: fresh.tool }));
    await expect.poll(() => shownTree(container)).toEqual({ status: 'ready', paths: ['/memories/a.md'] });
  });

  domIt('under StrictMode, holds one subscription and makes one read, React warns of nothing, and unmount lets go', async () => {
    consoleError = vi.spyOn(console, 'error');
    await fresh.create('/memories/a.md', 'a');
    const tool = counted();
    let renders = 0;
    const tree = createElement(Tree, { tool, onRender: () => renders++ });
    const { container, render, unmount } = await mount(createElement(StrictMode, null, tree));
    await expect.poll(() => shownTree(container)).toEqual({ status: 'ready', paths: ['/memories/a.md'] });
    // StrictMode ran the effect twice (subscribed, stopped, subscribed again): one subscription is left, one read made.
    expect(tool.subscribed).toBe(2);
    expect(tool.live).toBe(1);
    expect(tool.lists).toBe(1);

    // Re-rendered by its parent with a new inline options object each time: no new store, no new read.
    const before = renders;
    for (let i = 0; i < 5; i++) await render(createElement(StrictMode, null, createElement(Tree, { tool, onRender: () => renders++ })));
    expect(renders - before).toBeLessThanOrEqual(10);
    expect(tool.lists).toBe(1);
    expect(tool.live).toBe(1);

    await fresh.create('/memories/b.md', 'b');
    await expect.poll(() => shownTree(container).paths).toEqual(['/memories/a.md', '/memories/b.md']);
    await unmount();
    expect(tool.live).toBe(0);
    expect(consoleError).not.toHaveBeenCalled();
  });

  domIt('unsubscribes from the tool on unmount, and a write after it reads nothing', async () => {
    const tool = counted();
    const { container, unmount } = await mount(createElement(Tree, { tool }));
    await expect.poll(() => shownTree(container).status).toBe('ready');
    expect(tool.subscribed).toBe(1);
    await unmount();
    expect(tool.live).toBe(0);
    const lists = tool.lists;
    await fresh.create('/memories/after.md', 'x');
    await nextTask();
    expect(tool.lists).toBe(lists);
  });

  domIt('never shows the late answer of a tool it has left', async () => {
    const slow = new FakeMemory();
    await fresh.create('/memories/current.md', 'c');
    const { container, render } = await mount(createElement(Tree, { tool: slow }));
    await expect.poll(() => slow.lists.length).toBe(1);
    expect(shownTree(container).status).toBe('loading');

    await render(createElement(Tree, { tool: fresh.tool }));
    await expect.poll(() => shownTree(container)).toEqual({ status: 'ready', paths: ['/memories/current.md'] });
    expect(slow.subscribers).toBe(0);
    slow.lists[0]?.resolve([fileEntry('/memories/stale.md')]);
    await nextTask();
    await render(createElement(Tree, { tool: fresh.tool }));
    expect(shownTree(container)).toEqual({ status: 'ready', paths: ['/memories/current.md'] });
  });

  domIt('shows a folder with options.path, missing once it is deleted, and an error code for a file', async () => {
    await fresh.create('/memories/notes/a.md', 'a');
    const { container, render } = await mount(createElement(Tree, { tool: fresh.tool, path: '/memories/notes' }));
    await expect.poll(() => shownTree(container)).toEqual({ status: 'ready', paths: ['/memories/notes/a.md'] });
    await fresh.ok({ command: 'delete', path: '/memories/notes' });
    await expect.poll(() => shownTree(container)).toEqual({ status: 'missing', paths: [] });

    await fresh.create('/memories/file.md', 'f');
    await render(createElement(Tree, { tool: fresh.tool, path: '/memories/file.md' }));
    await expect.poll(() => shownTree(container).status).toBe('error');
    expect(container.querySelector('ul')?.dataset.error).toBe('not_a_folder');
  });

  domIt('answers refresh(), which lists the folder again, and the same answer object until something changed', async () => {
    await fresh.create('/memories/a.md', 'a');
    const tool = counted();
    const answers: WithRefresh<MemoryTreeSnapshot>[] = [];
    const tree = () => createElement(Tree, { tool, onRender: (answer) => answers.push(answer) });
    const { container, render } = await mount(tree());
    await expect.poll(() => shownTree(container).status).toBe('ready');
    expect(tool.lists).toBe(1);

    await render(tree());
    const [before, after] = answers.slice(-2);
    expect(after).toBe(before);

    after?.refresh();
    await expect.poll(() => tool.lists).toBe(2);
    expect(shownTree(container)).toEqual({ status: 'ready', paths: ['/memories/a.md'] });
  });
});
