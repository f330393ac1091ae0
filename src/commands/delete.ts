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
  const done = { reply: reply.deleted(command.path), changes: [{ type: 'delete' as const, path: key }] };
  if (entry.kind !== 'folder') return { ...done, ...deleteEntries(tx, [entry], usage) };
  // A folder's delete is too much work to risk a second run: trusted totals are checked beside its subtree's read.
  const [below, checked] = await Promise.all([
    tx.objectStore('entries').getAll(subtreeRange(key)),
    ctx.trusted ? readTotals(tx, ctx.known) : usage,
  ]);
  return { ...done, ...deleteEntries(tx, [entry, ...below], checked, key), ...(ctx.trusted ? { checked: true } : {}) };
}
