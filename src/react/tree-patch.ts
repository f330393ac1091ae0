// The live tree's partial read: the entries at the paths a change touched read again and put in place of what was
// shown there, so one write costs a read of one entry, not of the whole folder (./README.md, "Reads").

import { isMemoryToolError } from '../core/errors.js';
import { isHiddenName, isWithin } from '../core/paths.js';
import type { MemoryEntry } from '../storage/tree-reads.js';

/** What a partial read needs of the tool: `IndexedDBMemoryTool` has both. */
export interface MemoryEntryReads {
  list(path?: string): Promise<MemoryEntry[]>;
  stat(path: string): Promise<MemoryEntry>;
}

/** Past this many paths to read again, one read of the whole folder costs less than one read per path. */
export const MOST_PATHS_PATCHED = 50;

/**
 * The paths to read again for `changed` (keys strictly below `root`): each once; a folder not shown yet in place of
 * what lies in it (a write makes the folders above the file); none below another one, whose read covers it.
 */
export function pathsToRead(root: string, changed: Iterable<string>, shown: ReadonlySet<string>): string[] {
  const wanted = new Set<string>();
  for (const path of changed) wanted.add(firstNotShown(root, path, shown));
  const sorted = [...wanted].sort(comparePaths);
  const out: string[] = [];
  for (const path of sorted) {
    const last = out[out.length - 1];
    if (last === undefined || !isWithin(path, last)) out.push(path);
  }
  return out;
}

/** The outermost folder above `path` (below `root`) not shown, or `path` itself. */
function firstNotShown(root: string, path: string, shown: ReadonlySet<string>): string {
  for (let at = path.indexOf('/', root.length + 1); at !== -1; at = path.indexOf('/', at + 1)) {
    const folder = path.slice(0, at);
    if (!shown.has(folder)) return folder;
  }
  return path;
}

/**
 * The entries below the folder `root` once each of `paths` (from {@link pathsToRead}) is read again with all it
 * holds: what was shown at or below a path is replaced by what is there now, or dropped when nothing is.
 */
export async function patchTree(
  tool: MemoryEntryReads,
  root: string,
  entries: readonly MemoryEntry[],
  paths: readonly string[],
): Promise<MemoryEntry[]> {
  const found = await Promise.all(paths.map((path) => readAt(tool, path)));
  const kept = entries.filter((entry) => !paths.some((path) => isWithin(entry.path, path)));
  const fresh = found.flat().map((entry) => ({ ...entry, hidden: hiddenBelow(root, entry.path) }));
  return [...kept, ...fresh].sort(byPath);
}

/** The entry at `path` and, for a folder, every one below it; none when nothing is there (any more). */
async function readAt(tool: MemoryEntryReads, path: string): Promise<MemoryEntry[]> {
  try {
    const entry = await tool.stat(path);
    return entry.kind === 'folder' ? [entry, ...(await tool.list(path))] : [entry];
  } catch (error) {
    // Gone, perhaps between the two reads: its delete is announced too, and reads it again.
    if (isMemoryToolError(error) && error.code === 'not_found') return [];
    throw error;
  }
}

/** `hidden` as `list(root)` says it: a dot-name or `node_modules` below the folder listed. */
const hiddenBelow = (root: string, path: string): boolean => path.slice(root.length + 1).split('/').some(isHiddenName);

/** The order `list()` gives: IndexedDB's order of string keys, by UTF-16 code units, as `<` compares. */
const comparePaths = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const byPath = (a: MemoryEntry, b: MemoryEntry): number => comparePaths(a.path, b.path);
