// The live tree: `tool.list(path)` kept current by the tool's change events, framework-free (./README.md).

import { isMemoryToolError } from '../core/errors.js';
import { MEMORY_ROOT } from '../core/paths.js';
import type { MemoryEntry } from '../storage/tree-reads.js';
import { changesReaching } from './change-scope.js';
import type { MemoryChangeSource, MemorySnapshotStore } from './live-read.js';
import { constantStore, liveRead } from './live-read.js';

/** What the live tree needs of the tool: `IndexedDBMemoryTool` has it, and so may a wrapper or a fake. */
export interface MemoryTreeSource extends MemoryChangeSource {
  list(path?: string): Promise<MemoryEntry[]>;
}

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
      readonly status: 'idle' | 'loading' | 'ready' | 'missing';
      /** Every entry below the folder, hidden ones too, sorted by path, as `tool.list()` gives them. */
      readonly entries: readonly MemoryEntry[];
      readonly error: undefined;
    }
  | { readonly status: 'error'; readonly entries: readonly MemoryEntry[]; readonly error: Error };

export type MemoryTreeStore = MemorySnapshotStore<MemoryTreeSnapshot>;

const NO_ENTRIES: readonly MemoryEntry[] = Object.freeze([]);
const IDLE: MemoryTreeSnapshot = Object.freeze({ status: 'idle', entries: NO_ENTRIES, error: undefined });
const LOADING: MemoryTreeSnapshot = Object.freeze({ status: 'loading', entries: NO_ENTRIES, error: undefined });
const MISSING: MemoryTreeSnapshot = Object.freeze({ status: 'missing', entries: NO_ENTRIES, error: undefined });

/**
 * A live view of the entries below `options.path`. Creating it does nothing; it reads while subscribed. With no
 * tool (`undefined` or `null` while the app opens it) it stays `idle`.
 */
export function createMemoryTreeStore(
  tool: MemoryTreeSource | null | undefined,
  options: MemoryTreeOptions = {},
): MemoryTreeStore {
  if (!tool) return constantStore(IDLE);
  const path = options.path ?? MEMORY_ROOT;
  return liveRead<MemoryTreeSnapshot>({
    source: tool,
    initial: LOADING,
    async read() {
      try {
        const entries = await tool.list(path);
        return Object.freeze({ status: 'ready', entries: Object.freeze(entries), error: undefined });
      } catch (error) {
        if (isMemoryToolError(error) && error.code === 'not_found') return MISSING;
        throw error;
      }
    },
    failed: (error, current) => Object.freeze({ status: 'error', entries: current.entries, error }),
    affects: changesReaching(path),
  });
}
