// Reads the memory through the tool's own public commands: the tree from `view` listings (hidden items are
// left out, as Claude sees them), a file's text from `view` without its line numbers.

import { MEMORY_ROOT } from '../src/index.js';
import type { IndexedDBMemoryTool } from '../src/index.js';

export type MemoryNode =
  | { kind: 'file'; path: string; name: string; size: string }
  | { kind: 'folder'; path: string; name: string; children: MemoryNode[] };

interface Listed {
  path: string;
  folder: boolean;
  size: string;
}

/** Every visible file and folder below /memories, as a tree sorted folders first, then by name. */
export async function listMemory(tool: IndexedDBMemoryTool): Promise<MemoryNode[]> {
  const found = new Map<string, Listed>();
  const pending = [MEMORY_ROOT];
  while (pending.length > 0) {
    const folder = pending.pop() ?? MEMORY_ROOT;
    // A listing goes two levels deep; folders at the second level are listed in turn.
    for (const entry of await listFolder(tool, folder)) {
      if (found.has(entry.path)) continue;
      found.set(entry.path, entry);
      const depth = entry.path.slice(folder.length + 1).split('/').length;
      if (entry.folder && depth === 2) pending.push(entry.path);
    }
  }
  return buildTree([...found.values()]);
}

async function listFolder(tool: IndexedDBMemoryTool, folder: string): Promise<Listed[]> {
  const result = await tool.run({ command: 'view', path: folder });
  if (result.is_error) return [];
  // Line 1 is the heading and line 2 the folder itself; then `SIZE<TAB>PATH`, folders ending in `/`.
  return result.content
    .split('\n')
    .slice(2)
    .flatMap((line) => {
      const tab = line.indexOf('\t');
      if (tab < 0) return [];
      const shown = line.slice(tab + 1);
      const folderEntry = shown.endsWith('/');
      return [{ path: folderEntry ? shown.slice(0, -1) : shown, folder: folderEntry, size: line.slice(0, tab) }];
    });
}

function buildTree(entries: Listed[]): MemoryNode[] {
  const roots: MemoryNode[] = [];
  const folders = new Map<string, MemoryNode[]>([[MEMORY_ROOT, roots]]);
  const sorted = [...entries].sort((a, b) => a.path.split('/').length - b.path.split('/').length);
  for (const entry of sorted) {
    const slash = entry.path.lastIndexOf('/');
    const parent = folders.get(entry.path.slice(0, slash)) ?? roots;
    const name = entry.path.slice(slash + 1);
    if (entry.folder) {
      const children: MemoryNode[] = [];
      folders.set(entry.path, children);
      parent.push({ kind: 'folder', path: entry.path, name, children });
    } else {
      parent.push({ kind: 'file', path: entry.path, name, size: entry.size });
    }
  }
  const order = (list: MemoryNode[]) => {
    list.sort((a, b) => (a.kind === b.kind ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.kind === 'folder' ? -1 : 1));
    for (const node of list) if (node.kind === 'folder') order(node.children);
  };
  order(roots);
  return roots;
}

/** The text of a file, as `view` shows it without the heading and line numbers. */
export async function readMemoryFile(tool: IndexedDBMemoryTool, path: string): Promise<string> {
  const shown = await tool.view({ command: 'view', path });
  const lines = shown.split('\n').slice(1);
  return lines.map((line) => line.replace(/^ *\d+\t/, '')).join('\n');
}
