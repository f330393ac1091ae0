// Small components over the hooks for the tests, written with createElement (no JSX): what they render is what a
// test reads back from the DOM.

import { createElement } from 'react';
import type { ReactElement } from 'react';
import type { MemoryFileSource, MemoryTreeSnapshot, MemoryTreeSource } from '../../src/index.js';
import type { WithRefresh } from '../../src/entries/react.js';
import { useMemoryFile, useMemoryTree } from '../../src/entries/react.js';

export interface TreeProps {
  tool: MemoryTreeSource | null | undefined;
  path?: string | undefined;
  /** Called on every render with what the hook answered, to count renders and keep the answers. */
  onRender?: (tree: WithRefresh<MemoryTreeSnapshot>) => void;
}

/** `<ul data-status>` with one `<li>` per entry path, and the error's code or message in `data-error`. */
export function Tree({ tool, path, onRender }: TreeProps): ReactElement {
  // An inline options object on every render, as apps write it.
  const tree = useMemoryTree(tool, { path });
  onRender?.(tree);
  const error = tree.error ? ((tree.error as { code?: string }).code ?? tree.error.message) : '';
  return createElement(
    'ul',
    { 'data-status': tree.status, 'data-error': error },
    tree.entries.map((entry) => createElement('li', { key: entry.path }, entry.path)),
  );
}

/** `<pre data-status>` with the file's text. */
export function FileText({ tool, path }: { tool: MemoryFileSource | null | undefined; path: string | null }): ReactElement {
  const file = useMemoryFile(tool, path);
  return createElement('pre', { 'data-status': file.status }, file.text ?? '');
}

/** What a {@link Tree} shows: its status and its entry paths. */
export function shownTree(container: HTMLElement): { status: string | undefined; paths: string[] } {
  const list = container.querySelector('ul');
  return {
    status: list?.dataset.status,
    paths: [...(list?.querySelectorAll('li') ?? [])].map((item) => item.textContent ?? ''),
  };
}

/** What a {@link FileText} shows: its status and text. */
export function shownFile(container: HTMLElement): { status: string | undefined; text: string } {
  const pre = container.querySelector('pre');
  return { status: pre?.dataset.status, text: pre?.textContent ?? '' };
}
