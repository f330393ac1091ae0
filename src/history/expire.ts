// Expiry: deleting the files nobody read or wrote since a given time, as the memory-tool documentation
// recommends for long-lived memories. One transaction over metadata only (bodies are never read).

import type { WriteResult } from '../commands/write-result.js';
import { readTotals } from '../storage/optimistic-totals.js';
import { undoReply } from './undo-replies.js';
import type { MemoryTx } from '../storage/store.js';
import type { FileIdentity } from '../storage/file-use.js';
import { deleteEntries } from '../storage/entries.js';
import { lastUsed } from '../storage/file-use.js';

/**
 * Deletes every file last used before `cutoff` (ms since the epoch); folders stay. `viewed` holds the calling tool's
 * own views, which its stored access times may not show yet (they are written at most once an hour): read once the
 * entries are, when every view called before the expiry has read (its transaction came first).
 */
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
