// Undo of one journaled change, inside one transaction: every step is checked against the memory as it is
// now (a file must still hold exactly the body the change left), then reversed. If any step would clobber
// a later change, nothing is undone.

import { MemoryToolError } from './errors.js';
import type { MemoryChange, WriteResult } from './commands.js';
import { folderRecord, getEntry, getUsage, moveTree, subtreeRange } from './commands.js';
import type { ResolvedLimits } from './limits.js';
import { MEMORY_ROOT, ancestorsOf, parentOf } from './paths.js';
import { undoReply } from './undo-replies.js';
import type { EntryRecord, FileState, JournalOp, JournalRecord } from './schema.js';
import type { MemoryTx } from './store.js';
import type { RetiredBody } from './journal.js';

type WriteTx = MemoryTx<'readwrite'>;

/** The entry to undo: `id`, or the latest change not undone and not itself an undo. */
export async function findUndoTarget(tx: WriteTx, id: number | undefined): Promise<JournalRecord> {
  const journal = tx.objectStore('journal');
  if (id !== undefined) {
    const entry = await journal.get(id);
    if (!entry || entry.hidden) throw new MemoryToolError('not_found', undoReply.undoMissing(id));
    return entry;
  }
  for (let cursor = await journal.openCursor(null, 'prev'); cursor; cursor = await cursor.continue()) {
    if (!cursor.value.undone && cursor.value.undoOf === undefined && !cursor.value.hidden) return cursor.value;
  }
  throw new MemoryToolError('not_found', undoReply.nothingToUndo());
}

const sameFile = (entry: EntryRecord | undefined, state: FileState | null): boolean =>
  state === null ? entry === undefined : entry?.kind === 'file' && entry.bodyId === state.bodyId;

/** Reverses `target`'s ops (last first) after checking each one; returns what the undo changed. */
export async function undoChange(
  tx: WriteTx,
  target: JournalRecord,
  limits: ResolvedLimits,
  now: number,
): Promise<WriteResult> {
  const id = target.id ?? 0;
  if (target.undone) throw new MemoryToolError('conflict', undoReply.alreadyUndone(id));
  if (!target.undoable) throw new MemoryToolError('conflict', undoReply.notUndoable(id));
  const entries = tx.objectStore('entries');
  const ops = [...target.ops].reverse();

  // Check everything first: a refused undo must write nothing.
  const current = await Promise.all(
    ops.map((op) => (op.type === 'move' ? Promise.all([getEntry(tx, op.to), getEntry(tx, op.from)]) : getEntry(tx, op.path))),
  );
  ops.forEach((op, i) => {
    const now = current[i];
    if (op.type === 'file' && !sameFile(now as EntryRecord | undefined, op.after)) {
      throw new MemoryToolError('conflict', undoReply.undoConflict(id, op.path));
    }
    if (op.type === 'move') {
      const [at, from] = now as [EntryRecord | undefined, EntryRecord | undefined];
      if (!at || from) throw new MemoryToolError('conflict', undoReply.undoConflict(id, at ? op.from : op.to));
    }
  });

  const inverse: JournalOp[] = [];
  const retired: RetiredBody[] = [];
  const changes: MemoryChange[] = [];
  let bytes = 0;
  let files = 0;
  for (const op of ops) {
    if (op.type === 'move') {
      const at = await getEntry(tx, op.to);
      if (at) await moveTree(tx, at, op.from);
      inverse.push({ type: 'move', from: op.to, to: op.from });
      changes.push({ type: 'rename', path: op.from, from: op.to });
    } else if (op.type === 'folder') {
      const existing = await entries.get(op.path);
      if (op.before && !existing) {
        await entries.put(folderRecord(op.path, now));
        inverse.push({ type: 'folder', path: op.path, before: false, after: true });
      } else if (!op.before && existing?.kind === 'folder' && (await entries.count(subtreeRange(op.path))) === 0) {
        // A folder the change made goes only if it is still empty.
        await entries.delete(op.path);
        inverse.push({ type: 'folder', path: op.path, before: true, after: false });
      }
    } else {
      if (op.after) {
        retired.push({ id: op.after.bodyId, size: op.after.size });
        bytes -= op.after.size;
        files--;
      }
      if (op.before) {
        await ensureFolders(tx, op.path, now, id);
        const { bodyId, size, createdAt, updatedAt } = op.before;
        await entries.put({ path: op.path, parent: parentOf(op.path), kind: 'file', size, bodyId, createdAt, updatedAt });
        bytes += size;
        files++;
      } else {
        await entries.delete(op.path);
      }
      inverse.push({ type: 'file', path: op.path, before: op.after, after: op.before });
      changes.push(op.before ? { type: 'write', path: op.path } : { type: 'delete', path: op.path });
    }
  }
  const usage = await getUsage(tx);
  const after = { ...usage, bytes: usage.bytes + bytes, files: usage.files + files };
  if ((bytes > 0 && after.bytes > limits.maxTotalBytes) || (files > 0 && after.files > limits.maxFiles)) {
    throw new MemoryToolError('too_large', undoReply.undoTooLarge(id));
  }
  return { reply: undoReply.undone(id), changes, ops: inverse, retired, usage: after };
}

/** Makes the missing folders above `key` (a restored file's folder may have been deleted with it). */
async function ensureFolders(tx: WriteTx, key: string, now: number, id: number): Promise<void> {
  const entries = tx.objectStore('entries');
  for (const folder of ancestorsOf(key)) {
    if (folder === MEMORY_ROOT) continue;
    const existing = await entries.get(folder);
    if (existing?.kind === 'file') throw new MemoryToolError('conflict', undoReply.undoConflict(id, folder));
    if (!existing) await entries.put(folderRecord(folder, now));
  }
}

/** Marks entry `id` undone (kept in the history so the undo itself can be seen and undone). */
export async function markUndone(tx: WriteTx, entry: JournalRecord): Promise<void> {
  await tx.objectStore('journal').put({ ...entry, undone: true });
}
