// useMemoryFile with real React in the browsers: nothing read until a path is chosen, then the file's text kept
// current, `missing` once it is gone, and a new path never showing the old file's answer. Skipped in Node (no DOM).

import { createElement } from 'react';
import { describe, expect } from 'vitest';
import type { MemoryFileSource } from '../../src/index.js';
import { freshToolEach } from '../helpers/fresh-tool.js';
import { FileText, shownFile } from './components.js';
import { FakeMemory, nextTask } from './fake-memory.js';
import { domIt, mount } from './react-root.js';

const fresh = freshToolEach('react-hook-file');

describe('useMemoryFile', () => {
  domIt('reads nothing until a path is chosen, then shows the text and follows its edits', async () => {
    const fake = new FakeMemory();
    const { container, render } = await mount(createElement(FileText, { tool: fake, path: null }));
    expect(shownFile(container)).toEqual({ status: 'idle', text: '' });
    expect(fake.reads).toHaveLength(0);

    await fresh.create('/memories/todo.md', '- one\n');
    await render(createElement(FileText, { tool: fresh.tool, path: '/memories/todo.md' }));
    await expect.poll(() => shownFile(container)).toEqual({ status: 'ready', text: '- one\n' });
    await fresh.ok({ command: 'str_replace', path: '/memories/todo.md', old_str: 'one', new_str: 'uno' });
    await expect.poll(() => shownFile(container).text).toBe('- uno\n');
    const other = await fresh.another();
    await other.insert({ command: 'insert', path: '/memories/todo.md', insert_line: 1, insert_text: '- dos\n' });
    await expect.poll(() => shownFile(container).text).toBe('- uno\n- dos\n');
  });

  domIt('says missing once the file is deleted, and shows it again when it is written back', async () => {
    await fresh.create('/memories/a.md', 'a');
    const { container } = await mount(createElement(FileText, { tool: fresh.tool, path: '/memories/a.md' }));
    await expect.poll(() => shownFile(container)).toEqual({ status: 'ready', text: 'a' });
    await fresh.ok({ command: 'delete', path: '/memories/a.md' });
    await expect.poll(() => shownFile(container)).toEqual({ status: 'missing', text: '' });
    await fresh.create('/memories/a.md', 'again');
    await expect.poll(() => shownFile(container)).toEqual({ status: 'ready', text: 'again' });
  });

  domIt("shows the newly chosen file, never the previous one's late answer", async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((done) => {
      release = done;
    });
    let heldReads = 0;
    // The same tool, whose read of a.md answers only when the test says, after b.md was chosen and shown.
    const tool: MemoryFileSource = {
      subscribe: (listener) => fresh.tool.subscribe(listener),
      read: async (path) => {
        if (path !== '/memories/a.md') return fresh.tool.read(path);
        heldReads++;
        await held;
        return 'stale a';
      },
    };
    await fresh.create('/memories/b.md', 'b');
    const { container, render } = await mount(createElement(FileText, { tool, path: '/memories/a.md' }));
    await expect.poll(() => heldReads).toBe(1);
    expect(shownFile(container).status).toBe('loading');
    await render(createElement(FileText, { tool, path: '/memories/b.md' }));
    await expect.poll(() => shownFile(container)).toEqual({ status: 'ready', text: 'b' });
    release();
    await nextTask();
    await render(createElement(FileText, { tool, path: '/memories/b.md' }));
    expect(shownFile(container)).toEqual({ status: 'ready', text: 'b' });
  });
});
