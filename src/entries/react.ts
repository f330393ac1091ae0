// `idb-memory-tool/react`: the memory as React state (`useMemoryTree`, `useMemoryFile`, `useMemorySearch`), on
// `useSyncExternalStore`.
// Needs `react` 18 or later; the framework-free stores under them are in the main entry.
/** @module idb-memory-tool/react */

export { useMemoryTree } from '../react/use-memory-tree.js';
export { useMemoryFile } from '../react/use-memory-file.js';
export { useMemorySearch } from '../react/use-memory-search.js';
export type { WithRefresh } from '../react/use-live-store.js';
// The types the hooks take and give, so an app imports them from where it imports the hooks.
export type { MemoryTreeOptions, MemoryTreeSnapshot, MemoryTreeSource } from '../react/memory-tree-store.js';
export type { MemoryFileSnapshot, MemoryFileSource } from '../react/memory-file-store.js';
export type { MemorySearchOptions, MemorySearchSnapshot, MemorySearchSource } from '../react/memory-search-store.js';
