// The parent folders create and rename make (R-create, R-rename), refused below a file (R-below-file; ./README.md).

import { MemoryToolError } from '../core/errors.js';
import { ancestorsOf } from '../core/paths.js';
import { folderRecord, getEntry } from '../storage/entries.js';
import type { JournalOp } from '../storage/schema.js';
import type { MemoryTx } from '../storage/store.js';
import { writer } from '../storage/store.js';

type WriteTx = MemoryTx<'readwrite'>;

/** The missing ancestor folders of `key`; refuses with `belowFile(ancestor)` when one is a file. */
export async function foldersToMake(tx: WriteTx, key: string, belowFile: (file: string) => string): Promise<string[]> {
  const ancestors = ancestorsOf(key);
  const parent = ancestors.at(-1);
  if (parent === undefined) return [];
  // A folder that exists has all its ancestors, so the usual case costs one read: the parent.
  const near = await getEntry(tx, parent);
  if (near?.kind === 'folder') return [];
  if (near?.kind === 'file') throw new MemoryToolError('not_a_file', belowFile(parent));
  const found = await Promise.all(ancestors.slice(0, -1).map((folder) => getEntry(tx, folder)));
  const missing: string[] = [];
  found.forEach((entry, i) => {
    const folder = ancestors[i] as string;
    if (entry?.kind === 'file') throw new MemoryToolError('not_a_file', belowFile(folder));
    if (!entry) missing.push(folder);
  });
  missing.push(parent);
  return missing;
}

export function makeFolders(tx: WriteTx, folders: readonly string[], now: number): void {
  if (folders.length === 0) return;
  const entries = writer(tx, 'entries');
  for (const folder of folders) entries.put(folderRecord(folder, now));
}

/** The journal ops of folders a change made. */
export const folderOps = (made: readonly string[]): JournalOp[] =>
  made.map((path) => ({ type: 'folder', path, before: false, after: true }));
