// The local side of a mount as one snapshot (its files, its folders, its baseline, read in one transaction), and
// the texts of chosen files read in another. Paths are the remote's: the key with the mount folder taken off.

import { isWithin } from '../core/paths.js';
import { subtreeRange } from '../storage/entries.js';
import type { MemoryStore } from '../storage/store.js';
import { readBaseline } from './baseline.js';
import type { Skip } from './baseline.js';
import type { Baseline, LocalFile } from './merge-plan.js';

export interface LocalSnapshot {
  files: Map<string, LocalFile>;
  /** Every folder path here (made, or above a file), e.g. `/notes`. */
  folders: Set<string>;
  synced: Map<string, Baseline>;
  skipped: Map<string, Skip>;
}

/** The mount folder's files and folders, leaving out the folders other mounts own. */
export async function readLocal(
  store: MemoryStore,
  mountFolder: string,
  mountKey: string,
  excluded: readonly string[],
): Promise<LocalSnapshot> {
  return store.run(
    'readonly',
    async (tx) => {
      const [records, baseline] = await Promise.all([
        tx.objectStore('entries').getAll(subtreeRange(mountFolder)),
        readBaseline(tx, mountKey),
      ]);
      const files = new Map<string, LocalFile>();
      const folders = new Set<string>();
      for (const record of records) {
        if (excluded.some((folder) => isWithin(record.path, folder))) continue;
        const path = record.path.slice(mountFolder.length);
        if (record.kind === 'folder') folders.add(path);
        else files.set(path, { bodyId: record.bodyId ?? 0, size: record.size });
      }
      return { files, folders, ...baseline };
    },
    ['entries', 'sync'],
  );
}

/** The texts of the given bodies, in one transaction; a body gone meanwhile reads as undefined. */
export async function readTexts(store: MemoryStore, bodyIds: readonly number[]): Promise<Map<number, string>> {
  if (bodyIds.length === 0) return new Map();
  return store.run(
    'readonly',
    async (tx) => {
      const bodies = tx.objectStore('bodies');
      const texts = await Promise.all(bodyIds.map((id) => bodies.get(id)));
      const out = new Map<number, string>();
      bodyIds.forEach((id, i) => {
        const text = texts[i];
        if (text !== undefined) out.set(id, text);
      });
      return out;
    },
    ['bodies'],
  );
}
