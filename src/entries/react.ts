// `idb-memory-tool/react`: the memory as React state (`useMemoryTree`, `useMemoryFile`, `useMemorySearch`), on
// `useSyncExternalStore`.
// Needs `react` 18 or later; the framework-free stores under them are in the main entry.

export { useMemoryTree } from '../react/use-memory-tree.js';
export { useMemoryFile } from '../react/use-memory-file.js';
export { useMemorySearch } from '../react/use-memory-search.js';
export type { WithRefresh } from '../react/use-live-store.js';
