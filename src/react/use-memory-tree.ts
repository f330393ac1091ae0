// useMemoryTree: the live tree for a React component, a thin hook over createMemoryTreeStore.

import { useMemo, useSyncExternalStore } from 'react';
import type { MemoryTreeOptions, MemoryTreeSnapshot, MemoryTreeSource } from './memory-tree-store.js';
import { createMemoryTreeStore } from './memory-tree-store.js';

/**
 * The entries below `options.path` (default `/memories`) and the read's status, re-rendered after each change
 * that reaches them, from this tab or another. `tool` may be `undefined` or `null` while the app opens it
 * (`status: 'idle'`). The snapshot is the same object until something changed.
 *
 * @example
 * const { status, entries, error } = useMemoryTree(tool);
 */
export function useMemoryTree(
  tool: MemoryTreeSource | null | undefined,
  options: MemoryTreeOptions = {},
): MemoryTreeSnapshot {
  const { path } = options;
  // One store per tool and folder: a new one reads afresh, and the old one's late answer goes nowhere.
  const store = useMemo(() => createMemoryTreeStore(tool, { path }), [tool, path]);
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}
