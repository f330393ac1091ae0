// The live tree: `tool.list(path)` kept current by the tool's change events, each change read again alone where the
// tool can (`stat`), framework-free (./README.md).

import { isMemoryToolError } from '../core/errors.js';
import { MEMORY_ROOT, normalizeMemoryPath } from '../core/paths.js';
import type { MemoryEntry } from '../storage/tree-reads.js';
import { changedBelow } from './change-scope.js';
import type { MemoryChangeSource, MemorySnapshotStore } from './live-read.js';
import { constantStore, liveRead } from './live-read.js';
import { MOST_PATHS_PATCHED, patchTree, pathsToRead } from './tree-patch.js';

/** What the live tree needs of the tool: `IndexedDBMemoryTool` has it, and so may a wrapper or a fake. */
export interface MemoryTreeSource extends MemoryChangeSource {
  /** Every entry below `path` (default `/memories`), sorted by path; see `IndexedDBMemoryTool.list`. */
  list(path?: string): Promise<MemoryEntry[]>;
  /**
   * One entry (`IndexedDBMemoryTool.stat`). With it a change is read again alone; a source without it (an older
   * wrapper, say) is listed whole after every change.
   */
  stat?(path: string): Promise<MemoryEntry>;
}

/** What part of the memory a live tree shows. */
export interface MemoryTreeOptions {
  /** The folder whose subtree is shown (default `/memories`, the whole memory). */
  path?: string | undefined;
}

/**
 * The tree as last read. `status`: `idle` (no tool yet), `loading` (the first read under way), `ready`, `missing`
 * (the folder is not there, or no longer) or `error` (the latest read failed; `entries` stay those of the last read
 * that worked, as React Query and SWR keep theirs).
 */
export type MemoryTreeSnapshot =
  | {
      /** No tool yet, the first read under way, the entries read, or no folder at the path. */
      readonly status: 'idle' | 'loading' | 'ready' | 'missing';
      /** Every entry below the folder, hidden ones too, sorted by path, as `tool.list()` gives them. */
      readonly entries: readonly MemoryEntry[];
      /** No error. */
      readonly error: undefined;
    }
  | {
      /** The latest read failed. */
      readonly status: 'error';
      /** The entries of the last read that worked, or none. */
      readonly entries: readonly MemoryEntry[];
      /** Why it failed: usually a `MemoryToolError` (`not_a_folder` for a file). */
      readonly error: Error;
    };

/** A live tree: its snapshot, kept current while subscribed; see {@link createMemoryTreeStore}. */
export type MemoryTreeStore = MemorySnapshotStore<MemoryTreeSnapshot>;

const NO_ENTRIES: readonly MemoryEntry[] = Object.freeze([]);
const IDLE: MemoryTreeSnapshot = Object.freeze({ status: 'idle', entries: NO_ENTRIES, error: undefined });
const LOADING: MemoryTreeSnapshot = Object.freeze({ status: 'loading', entries: NO_ENTRIES, error: undefined });
const MISSING: MemoryTreeSnapshot = Object.freeze({ status: 'missing', entries: NO_ENTRIES, error: undefined });

/**
 * A live view of the entries below `options.path`. Creating it does nothing; it reads while subscribed: the whole
 * folder first, then only the entries each change touched (a burst's paths each once), and the whole folder again
 * when a change does not say what it touched, reaches the folder itself, or names too many paths, and on `refresh()`.
 * With no tool (`undefined` or `null` while the app opens it) it stays `idle`.
 */
export function createMemoryTreeStore(
  tool: MemoryTreeSource | null | undefined,
  options: MemoryTreeOptions = {},
): MemoryTreeStore {
  if (!tool) return constantStore(IDLE);
  const path = options.path ?? MEMORY_ROOT;
  const key = keyOf(path);
  /** What changed since the last read began: paths below the folder, or everything. */
  const changed = new Set<string>();
  let whole = true;

  const listAll = async (): Promise<MemoryTreeSnapshot> => {
    try {
      return ready(await tool.list(path));
    } catch (error) {
      if (isMemoryToolError(error) && error.code === 'not_found') return MISSING;
      throw error;
    }
  };

  return liveRead<MemoryTreeSnapshot>({
    source: tool,
    initial: LOADING,
    async read(current) {
      const paths = [...changed];
      const readWhole = whole;
      changed.clear();
      whole = false;
      // Only a shown tree can be patched: after an error or `missing`, what changed meanwhile is not known.
      if (readWhole || !tool.stat || key === undefined || current.status !== 'ready') return listAll();
      const shown = new Set(current.entries.map((entry) => entry.path));
      const toRead = pathsToRead(key, paths, shown);
      if (toRead.length > MOST_PATHS_PATCHED) return listAll();
      const stat = tool.stat.bind(tool);
      return ready(await patchTree({ list: (at) => tool.list(at), stat }, key, current.entries, toRead));
    },
    failed: (error, current) => Object.freeze({ status: 'error', entries: current.entries, error }),
    affects(event) {
      if (key === undefined) return false;
      const below = changedBelow(key, event);
      if (below === 'all') whole = true;
      else for (const at of below) changed.add(at);
      return below === 'all' || below.length > 0;
    },
    forget: () => {
      whole = true;
    },
    same: (current, next) =>
      current.status === next.status && current.error === next.error && sameEntries(current.entries, next.entries),
  });
}

const ready = (entries: MemoryEntry[]): MemoryTreeSnapshot =>
  Object.freeze({ status: 'ready', entries: Object.freeze(entries), error: undefined });

/** The folder's key, or none for a refused path: every read of it fails alike, and no change can alter that. */
function keyOf(path: string): string | undefined {
  try {
    return normalizeMemoryPath(path);
  } catch {
    return undefined;
  }
}

/** Whether two listings show the same: a read that found nothing new leaves the snapshot, and nothing re-renders. */
function sameEntries(a: readonly MemoryEntry[], b: readonly MemoryEntry[]): boolean {
  return a.length === b.length && a.every((entry, i) => {
    const other = b[i];
    return (
      other !== undefined &&
      entry.path === other.path &&
      entry.kind === other.kind &&
      entry.hidden === other.hidden &&
      entry.size === other.size &&
      entry.createdAt.getTime() === other.createdAt.getTime() &&
      entry.updatedAt.getTime() === other.updatedAt.getTime()
    );
  });
}
