// Which change events can alter what a live view shows, and which of its paths they touched, so a file's viewer is
// not re-read for every other file and a tree re-reads only the entries that changed.

import type { MemoryChange, MemoryChangeEvent } from '../core/change-events.js';
import { isWithin, normalizeMemoryPath } from '../core/paths.js';

/** What a change event did to the view of a folder: nothing, some paths at or below it, or unknown (read it whole). */
export type ChangedPaths = 'all' | readonly string[];

/**
 * A test of change events for the view of `path` (a folder's subtree or a file): true when a change of the files lands
 * on it, below it, or on a folder above it (deleting or renaming that folder takes the path with it), and for an
 * event that does not say what it changed.
 */
export function changesReaching(path: string): (event: MemoryChangeEvent) => boolean {
  let key: string;
  try {
    key = normalizeMemoryPath(path);
  } catch {
    // Every read of a refused path fails the same way: no change can alter that answer.
    return () => false;
  }
  return (event) => {
    const changed = changedPathsOf(event);
    return changed === 'all' || changed.some((at) => isWithin(at, key) || isWithin(key, at));
  };
}

/**
 * The paths strictly below the folder `key` (a normalized key) that `event` changed, each of them with what lies
 * below it; `'all'` when the folder itself, or one above it, changed, or when the event does not say what it changed
 * (a message from another tab without details, say): then only a read of the whole folder is sure.
 */
export function changedBelow(key: string, event: MemoryChangeEvent): ChangedPaths {
  const changed = changedPathsOf(event);
  if (changed === 'all') return 'all';
  const below: string[] = [];
  for (const at of changed) {
    if (isWithin(key, at)) return 'all';
    if (isWithin(at, key)) below.push(at);
  }
  return below;
}

/** Every path a change event touched (a rename by both ends), or `'all'` when it does not say. */
function changedPathsOf(event: MemoryChangeEvent): ChangedPaths {
  // Another tab's message is not typed: a change without a path, or of a kind added later, could have done anything.
  const changes: readonly unknown[] = Array.isArray(event.changes) ? event.changes : [];
  if (changes.length === 0) return 'all';
  const paths: string[] = [];
  for (const change of changes) {
    const known = knownChange(change);
    if (!known) return 'all';
    if (!altersFiles(known)) continue;
    paths.push(known.path);
    if (known.type === 'rename') paths.push(known.from);
  }
  return paths;
}

const KINDS: ReadonlySet<string> = new Set(['write', 'delete', 'rename', 'forget', 'history-cleared']);

function knownChange(change: unknown): MemoryChange | undefined {
  if (typeof change !== 'object' || change === null) return undefined;
  const { type, path, from } = change as Record<string, unknown>;
  if (typeof type !== 'string' || !KINDS.has(type) || typeof path !== 'string') return undefined;
  if (type === 'rename' && typeof from !== 'string') return undefined;
  return change as MemoryChange;
}

/** A forget or a cleared history changes only the history: a forgotten file that was there comes with its delete. */
const altersFiles = (change: MemoryChange): boolean => change.type !== 'forget' && change.type !== 'history-cleared';
