// useMemoryFile: one file's text on demand for a React component, a thin hook over createMemoryFileStore.

import { useMemo } from 'react';
import type { MemoryFileSnapshot, MemoryFileSource } from './memory-file-store.js';
import { createMemoryFileStore } from './memory-file-store.js';
import type { WithRefresh } from './use-live-store.js';
import { useLiveStore } from './use-live-store.js';

/**
 * The raw text of the file at `path` and the read's status (`missing` once the file is gone), re-rendered when a
 * change reaches the file, from this tab or another. No `path` (nothing chosen yet) or no `tool` reads nothing
 * (`status: 'idle'`). `refresh()` reads the file again now.
 *
 * @example
 * const file = useMemoryFile(tool, selectedPath);
 * if (file.status === 'ready') return createElement('pre', null, file.text);
 */
export function useMemoryFile(
  tool: MemoryFileSource | null | undefined,
  path: string | null | undefined,
): WithRefresh<MemoryFileSnapshot> {
  const store = useMemo(() => createMemoryFileStore(tool, path), [tool, path]);
  return useLiveStore(store);
}
