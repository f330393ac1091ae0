// Undo of one journaled change in one transaction: every read first, every step checked, then its writes sent together,
// or nothing (./README.md, "Undo").

import { MemoryToolError } from '../core/errors.js';
import type { WriteResult } from '../commands/write-result.js';
import { readTotals } from '../storage/optimistic-totals.js';
import type { ResolvedLimits } from '../core/limits.js';
import { MEMORY_ROOT, ancestorsOf, parentOf } from '../core/paths.js';
import { undoReply } from './undo-replies.js';
import type { EntryRecord, FileState, JournalOp, JournalRecord } from '../storage/schema.js';
import type { MemoryTx } from '../storage/store.js';
import type { MemoryChange } from '../core/change-events.js';
import { checkMove, folderRecord, movedThing } from '../storage/entries.js';
import { EntryView } from '../storage/entry-view.js';
import { writer } from '../storage/store.js';
import type { RetiredBody } from '../storage/entries.js';

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

/** What a path holds, as the undo's checks compare it: a file (its body), a folder, or nothing (`null`). */
type Held = { bodyId: number | undefined } | 'folder' | null;

const held = (entry: EntryRecord | undefined): Held =>
  entry === undefined ? null : entry.kind === 'folder' ? 'folder' : { bodyId: entry.bodyId };

/** Whether `now` is what a step of the change left there: the file `state`, or nothing. */
const isAsLeft = (now: Held | undefined, state: FileState | null): boolean =>
  state === null ? now === null : typeof now === 'object' && now !== null && now.bodyId === state.bodyId;

/** Reverses `target`'s ops (last first) after checking each one; returns what the undo changed. */
export async function undoChange(
  tx: WriteTx,
  target: JournalRecord,
  limits: ResolvedLimits,
  now: number,
): Promise<WriteResult> {
  const id = target.id ?? 0;
  if (target.undone) throw new MemoryToolError('conflict', undoReply.alreadyUndone(id));
  if (target.forgotten) throw new MemoryToolError('conflict', undoReply.partlyForgotten(id));
  if (!target.undoable) throw new MemoryToolError('conflict', undoReply.notUndoable(id));
  const ops = [...target.ops].reverse();

  // Every read first, all at once: the paths the steps name, the folders above them, the subtrees a step moves or
  // empties, and the totals. The steps then run on that view and their writes go out together at the end.
  const paths = ops.flatMap((op) => (op.type === 'move' ? [op.to, op.from] : [op.path]));
  const view = new EntryView();
  const [usage] = await Promise.all([
    readTotals(tx),
    view.load(
      tx,
      paths.flatMap((path) => [path, ...ancestorsOf(path)]),
      ops.flatMap((op) => (op.type === 'move' ? [op.to] : op.type === 'folder' ? [op.path] : [])),
    ),
  ]);

  // Check every step, against the memory as the steps undone before it leave it (`undone`).
  /** What the paths the steps checked so far set will hold once they are undone. */
  const undone = new Map<string, Held>();
  /** Files to restore where the change left a folder, which the steps before must have taken away. */
  const overFolder = new Set<string>();
  for (const op of ops) {
    if (op.type === 'file') {
      const there = held(view.get(op.path));
      if (!isAsLeft(undone.has(op.path) ? undone.get(op.path) : there, op.after)) {
        throw new MemoryToolError('conflict', undoReply.undoConflict(id, op.path));
      }
      undone.set(op.path, op.before);
      if (op.before && there === 'folder') overFolder.add(op.path);
    } else if (op.type === 'folder') {
      undone.set(op.path, op.before ? 'folder' : null);
    } else {
      const at = view.get(op.to);
      if (!at || !isWhatMoved(at, op)) throw new MemoryToolError('conflict', undoReply.undoConflict(id, op.to));
      if (view.get(op.from)) throw new MemoryToolError('conflict', undoReply.undoConflict(id, op.from));
    }
  }

  // Folders the change removed come back with their own times, also when a file below them brings them back first.
  const folderTimes = new Map(
    target.ops.flatMap((op) => (op.type === 'folder' && op.times ? [[op.path, op.times] as const] : [])),
  );
  const folderAt = (path: string): EntryRecord => {
    const record = folderRecord(path, now);
    const times = folderTimes.get(path);
    return times ? { ...record, createdAt: times[0], updatedAt: times[1] } : record;
  };
  const inverse: JournalOp[] = [];
  const changes: MemoryChange[] = [];
  /** Makes the folders missing above `key` (deleted since, or with the change), and journals each as made. */
  const folderFor = (key: string): void => {
    for (const path of ensureFolders(view, key, id, folderAt)) {
      inverse.push({ type: 'folder', path, before: false, after: true });
      changes.push({ type: 'write', path });
    }
  };
  const retired: RetiredBody[] = [];
  let bytes = 0;
  let files = 0;
  for (const op of ops) {
    if (op.type === 'move') {
      // Checked above: what the change moved is still there.
      const at = view.get(op.to) as EntryRecord;
      folderFor(op.from);
      const moved = at.kind === 'folder' ? [at, ...view.below(op.to)] : [at];
      checkMove(moved, op.from, (path, past) => new MemoryToolError('invalid_path', undoReply.undoPastLimits(id, path, past)));
      view.move(moved, op.from);
      inverse.push({ type: 'move', from: op.to, to: op.from, ...movedThing(at) });
      changes.push({ type: 'rename', path: op.from, from: op.to });
    } else if (op.type === 'folder') {
      const existing = view.get(op.path);
      if (op.before && existing?.kind === 'file') {
        throw new MemoryToolError('conflict', undoReply.undoConflict(id, op.path));
      }
      if (op.before && !existing) {
        folderFor(op.path);
        view.put(folderAt(op.path));
        inverse.push({ type: 'folder', path: op.path, before: false, after: true });
        changes.push({ type: 'write', path: op.path });
      } else if (!op.before && existing?.kind === 'folder' && view.below(op.path).length === 0) {
        view.delete(op.path);
        inverse.push({
          type: 'folder',
          path: op.path,
          before: true,
          after: false,
          times: [existing.createdAt, existing.updatedAt],
        });
        changes.push({ type: 'delete', path: op.path });
      }
    } else {
      if (op.after) {
        retired.push({ id: op.after.bodyId, size: op.after.size });
        bytes -= op.after.size;
        files--;
      }
      if (op.before) {
        if (op.before.size > limits.maxFileBytes) {
          throw new MemoryToolError('too_large', undoReply.undoTooLarge(id));
        }
        // A folder the change put here that could not go (written in since): the file cannot come back.
        if (overFolder.has(op.path) && view.get(op.path)?.kind === 'folder') {
          throw new MemoryToolError('conflict', undoReply.undoConflict(id, op.path));
        }
        folderFor(op.path);
        const { bodyId, size, createdAt, updatedAt } = op.before;
        view.put({
          path: op.path,
          parent: parentOf(op.path),
          kind: 'file',
          size,
          bodyId,
          createdAt,
          updatedAt,
          accessedAt: now,
        });
        bytes += size;
        files++;
      } else {
        view.delete(op.path);
      }
      inverse.push({ type: 'file', path: op.path, before: op.after, after: op.before });
      changes.push(op.before ? { type: 'write', path: op.path } : { type: 'delete', path: op.path });
    }
  }
  const after = { ...usage, bytes: usage.bytes + bytes, files: usage.files + files };
  if ((bytes > 0 && after.bytes > limits.maxTotalBytes) || (files > 0 && after.files > limits.maxFiles)) {
    throw new MemoryToolError('too_large', undoReply.undoTooLarge(id));
  }
  // Sent in one run with the undone mark and the journal record that follow (../tool/undo-action.ts).
  view.send(tx);
  return { reply: undoReply.undone(id), changes, ops: inverse, retired, usage: after };
}

/** Makes the missing folders above `key` as `record` has them, and gives those made; refuses if one is a file now. */
function ensureFolders(view: EntryView, key: string, id: number, record: (path: string) => EntryRecord): string[] {
  const made: string[] = [];
  for (const folder of ancestorsOf(key)) {
    if (folder === MEMORY_ROOT) continue;
    const existing = view.get(folder);
    if (existing?.kind === 'file') throw new MemoryToolError('conflict', undoReply.undoConflict(id, folder));
    if (!existing) {
      view.put(record(folder));
      made.push(folder);
    }
  }
  return made;
}

/** Whether `at` is what the move `op` put there; a move journaled before moves said what moved passes. */
function isWhatMoved(at: EntryRecord, op: Extract<JournalOp, { type: 'move' }>): boolean {
  if (op.kind === undefined) return true;
  return op.kind === 'folder' ? at.kind === 'folder' : at.kind === 'file' && at.bodyId === op.bodyId;
}

/** Marks entry `id` undone (kept in the history so the undo itself can be seen and undone). */
export function markUndone(tx: WriteTx, entry: JournalRecord): void {
  writer(tx, 'journal').put({ ...entry, undone: true });
}
