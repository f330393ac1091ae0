// The `idb-memory-tool/react` entry: the two hooks, and the framework-free stores under them.

export { useMemoryTree } from './use-memory-tree.js';
export { useMemoryFile } from './use-memory-file.js';
export { createMemoryTreeStore } from './memory-tree-store.js';
export type { MemoryTreeOptions, MemoryTreeSnapshot, MemoryTreeSource, MemoryTreeStore } from './memory-tree-store.js';
export { createMemoryFileStore } from './memory-file-store.js';
export type { MemoryFileSnapshot, MemoryFileSource, MemoryFileStore } from './memory-file-store.js';
export type { MemoryChangeSource, MemorySnapshotStore } from './live-read.js';
