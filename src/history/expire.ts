// Expiry: deleting the files nobody read or wrote since a time, in one transaction over metadata only (./README.md).

import type { WriteResult } from '../commands/write-result.js';
import { readTotals } from '../storage/optimistic-totals.js';
import { undoReply } from './undo-replies.js';
import type { MemoryTx } from '../storage/store.js';
import type { FileIdentity } from '../storage/file-use.js';
import { deleteEntries } from '../storage/entries.js';
import { lastUsed } from '../storage/file-use.js';

/** Deletes every file last used before `cutoff`; folders stay. `viewed`: the caller's own views, not stored yet. */
export async function expireFiles(
  tx: MemoryTx<'readwrite'>,
  cutoff: number,
  viewed?: ReadonlyMap<FileIdentity, number>,
): Promise<WriteResult & { paths: string[] }> {
  const [all, usage] = await Promise.all([tx.objectStore('entries').getAll(), readTotals(tx)]);
  const stale = all.filter((entry) => entry.kind === 'file' && lastUsed(entry, viewed) < cutoff);
  const removed = deleteEntries(tx, stale, usage);
  const paths = stale.map((entry) => entry.path);
  return {
    reply: undoReply.expired(paths.length),
    changes: paths.map((path) => ({ type: 'delete', path })),
    paths,
    ...removed,
  };
}
