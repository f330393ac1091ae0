// The memory tree for the panel, built from tool.list(): every entry, hidden names included (Claude's `view`
// listing skips them, the person should still see them). Pure: no DOM, no storage.

import { MEMORY_ROOT } from '../../src/index.js';
import type { MemoryEntry } from '../../src/index.js';

export type MemoryNode =
  | { kind: 'file'; path: string; name: string; size: number; hidden: boolean }
  | { kind: 'folder'; path: string; name: string; hidden: boolean; children: MemoryNode[] };

/** The entries of `tool.list()` as a tree: folders first, then by name in UTF-16 code units, like `view`. */
export function buildTree(entries: readonly MemoryEntry[]): MemoryNode[] {
  const roots: MemoryNode[] = [];
  const folders = new Map<string, MemoryNode[]>([[MEMORY_ROOT, roots]]);
  // list() sorts by path, but `/a/b` sorts after `/a-c`: order by depth so every parent is there first.
  const byDepth = [...entries].sort((a, b) => depth(a.path) - depth(b.path));
  for (const entry of byDepth) {
    const parentPath = entry.path.slice(0, entry.path.lastIndexOf('/'));
    const parent = folders.get(parentPath) ?? roots;
    const { hidden } = entry;
    if (entry.kind === 'folder') {
      const children: MemoryNode[] = [];
      folders.set(entry.path, children);
      parent.push({ kind: 'folder', path: entry.path, name: entry.name, hidden, children });
    } else {
      parent.push({ kind: 'file', path: entry.path, name: entry.name, size: entry.size, hidden });
    }
  }
  const order = (list: MemoryNode[]) => {
    list.sort((a, b) => (a.kind === b.kind ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.kind === 'folder' ? -1 : 1));
    for (const node of list) if (node.kind === 'folder') order(node.children);
  };
  order(roots);
  return roots;
}

function depth(path: string): number {
  let n = 0;
  for (const char of path) if (char === '/') n++;
  return n;
}
