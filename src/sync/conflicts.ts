// The conflict copies of a mount: listing them for the status, and settling one in one undoable change by the person.

import { isWithin, normalizeMemoryPath } from '../core/paths.js';
import { subtreeRange } from '../storage/entries.js';
import type { ToolInternals } from '../tool/internals.js';
import { copiedAt, originalAmong } from './conflict-names.js';
import { applyLocal } from './local-apply.js';
import type { LocalStep } from './local-apply.js';
import type { SyncConflict } from './sync-status.js';

/**
 * Every conflict copy below `mount` that stands beside its file: a pair a conflict explains. A file that only has a
 * copy's name (a remote can hold any name) is not shown as one.
 */
export async function listConflicts(tool: ToolInternals, mount: string): Promise<SyncConflict[]> {
  // Keys only (no records): this runs after every pass, on memories of many thousand files.
  const keys = new Set(await tool.store.run('readonly', (tx) => tx.objectStore('entries').getAllKeys(subtreeRange(mount)), ['entries']));
  const conflicts: SyncConflict[] = [];
  for (const key of keys) {
    const at = copiedAt(key);
    if (!at) continue;
    // A cut copy (its file's name too long for the tag) is matched against the files beside it.
    const original = originalAmong(key, siblingsOf(key, keys));
    if (original && keys.has(original)) conflicts.push({ path: original, copy: key, at });
  }
  return conflicts;
}

/** The keys in the same folder as `key`, looked at only for a copy whose name does not hold its file's. */
function* siblingsOf(key: string, keys: ReadonlySet<string>): Iterable<string> {
  const folder = key.slice(0, key.lastIndexOf('/') + 1);
  for (const other of keys) if (other.startsWith(folder) && !other.includes('/', folder.length)) yield other;
}

/**
 * `current`: deletes the copy; `copy`: puts the copy's version at the path. One change by `user`, the baseline left as
 * it is, so the next pass carries it to the remote as a local change.
 */
export async function settleConflict(
  tool: ToolInternals,
  mount: string,
  mountKey: string,
  copy: string,
  keep: 'current' | 'copy',
): Promise<void> {
  const key = normalizeMemoryPath(copy);
  const folder = key.slice(0, key.lastIndexOf('/')) || '/';
  const beside = await tool.store.run('readonly', (tx) => tx.objectStore('entries').index('parent').getAllKeys(folder), ['entries']);
  const original = originalAmong(key, beside);
  if (!original || !isWithin(key, mount)) throw new TypeError(`${copy} is not a conflict copy in ${mount}`);
  const rel = (path: string): string => path.slice(mount.length);
  const [copyEntry, originalEntry] = await tool.store.run('readonly', (tx) =>
    Promise.all([tx.objectStore('entries').get(key), tx.objectStore('entries').get(original)]),
  );
  if (copyEntry?.kind !== 'file') throw new TypeError(`${copy} is not a file`);
  const steps: LocalStep[] =
    keep === 'current'
      ? [{ op: 'delete', path: rel(key), expect: copyEntry.bodyId ?? 0 }]
      : [
          ...(originalEntry?.kind === 'file'
            ? [{ op: 'delete' as const, path: rel(original), expect: originalEntry.bodyId ?? 0 }]
            : []),
          { op: 'move', from: rel(key), to: rel(original), expect: copyEntry.bodyId ?? 0 },
        ];
  const done = await applyLocal(tool, mount, mountKey, steps, [], 'user', false);
  if (done.changed.length > 0 || done.refused.length > 0) {
    throw new Error(`${copy} changed meanwhile; look again before choosing`);
  }
}
