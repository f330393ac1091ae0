// The delete command (R-delete in ./README.md): a file, or a folder with its whole key range, never the root.

import type { DeleteCommand } from '../core/command-input.js';
import { MemoryToolError } from '../core/errors.js';
import { MEMORY_ROOT, normalizeMemoryPath } from '../core/paths.js';
import { reply } from '../core/replies.js';
import { deleteEntries, getEntry, subtreeRange } from '../storage/entries.js';
import { readTotals } from '../storage/optimistic-totals.js';
import type { MemoryTx } from '../storage/store.js';
import type { WriteContext, WriteResult } from './write-result.js';

export async function remove(
  tx: MemoryTx<'readwrite'>,
  command: DeleteCommand,
  ctx: Pick<WriteContext, 'known' | 'trusted'> = {},
): Promise<WriteResult> {
  const key = normalizeMemoryPath(command.path);
  // R-delete-root: the root in any spelling (`/memories/`, `/memories/.`) normalizes to MEMORY_ROOT.
  if (key === MEMORY_ROOT) throw new MemoryToolError('forbidden', reply.deleteRoot());
  const [entry, usage] = await Promise.all([getEntry(tx, key), readTotals(tx, ctx.known, ctx.trusted)]);
  if (!entry) throw new MemoryToolError('not_found', reply.deleteMissing(command.path));
  const below = entry.kind === 'folder' ? await tx.objectStore('entries').getAll(subtreeRange(key)) : [];
  const gone = [entry, ...below];
  const removed = deleteEntries(tx, gone, usage, entry.kind === 'folder' ? key : undefined);
  return { reply: reply.deleted(command.path), changes: [{ type: 'delete', path: key }], ...removed };
}
