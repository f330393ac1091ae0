// useMemoryTree: the live tree for a React component, a thin hook over createMemoryTreeStore.

import { useMemo } from 'react';
import type { MemoryTreeOptions, MemoryTreeSnapshot, MemoryTreeSource } from './memory-tree-store.js';
import { createMemoryTreeStore } from './memory-tree-store.js';
import type { WithRefresh } from './use-live-store.js';
import { useLiveStore } from './use-live-store.js';

/**
 * The entries below `options.path` (default `/memories`) and the read's status, re-rendered after each change
 * that reaches them, from this tab or another. `tool` may be `undefined` or `null` while the app opens it
 * (`status: 'idle'`). The answer is the same object until something changed; its `refresh()` reads the folder whole
 * again (a retry after an error).
 *
 * @example
 * const { status, entries, error, refresh } = useMemoryTree(tool);
 */
export function useMemoryTree(
  tool: MemoryTreeSource | null | undefined,
  options: MemoryTreeOptions = {},
): WithRefresh<MemoryTreeSnapshot> {
  const { path } = options;
  // One store per tool and folder: a new one reads afresh, and the old one's late answer goes nowhere.
  const store = useMemo(() => createMemoryTreeStore(tool, { path }), [tool, path]);
  return useLiveStore(store);
}
