// Which change events can alter what a live view shows, so a file's viewer is not re-read for every other file.

import type { MemoryChange, MemoryChangeEvent } from '../core/change-events.js';
import { MEMORY_ROOT, isWithin, normalizeMemoryPath } from '../core/paths.js';

/**
 * A test of change events for the view of `path` (a folder's subtree or a file): true when a change of the files lands
 * on it, below it, or on a folder above it (deleting or renaming that folder takes the path with it).
 */
export function changesReaching(path: string): (event: MemoryChangeEvent) => boolean {
  let key: string;
  try {
    key = normalizeMemoryPath(path);
  } catch {
    // Every read of a refused path fails the same way: no change can alter that answer.
    return () => false;
  }
  if (key === MEMORY_ROOT) return (event) => event.changes.some(altersFiles);
  return (event) => event.changes.some((change) => altersFiles(change) && touches(change, key));
}

/** A forget or a cleared history changes only the history: a forgotten file that was there comes with its delete. */
const altersFiles = (change: MemoryChange): boolean => change.type !== 'forget' && change.type !== 'history-cleared';

function touches(change: MemoryChange, key: string): boolean {
  const paths = change.type === 'rename' ? [change.path, change.from] : [change.path];
  return paths.some((path) => isWithin(path, key) || isWithin(key, path));
}
