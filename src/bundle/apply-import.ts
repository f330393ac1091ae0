// Applying a plan inside the import's readwrite transaction, with the steps that reverse it for the journal.

import { parentOf } from '../core/paths.js';
import { fileState, folderRecord } from '../storage/entries.js';
import type { RetiredBody } from '../storage/entries.js';
import type { EntryRecord, JournalOp } from '../storage/schema.js';
import type { MemoryTx } from '../storage/store.js';
import type { Plan } from './plan-import.js';

export interface Applied {
  /** The steps that undo the import. */
  ops: JournalOp[];
  /** The bodies it replaced or removed, for the journal to keep or release. */
  retired: RetiredBody[];
  nextBody: number;
}

/**
 * Sends every write of `plan` at once, without awaiting anything, and returns the steps; `written` settles when they
 * have. The caller sends the journal record right after, in the same synchronous run: a page closed mid-import
 * then cannot leave the files without their record (Firefox commits what a closing page had sent). `step` is called
 * once per bundle file, as it is written or skipped.
 */
export function applyPlan(
  tx: MemoryTx<'readwrite'>,
  plan: Plan,
  current: ReadonlyMap<string, EntryRecord>,
  nextBody: number,
  now: number,
  step: () => void,
): Applied & { written: Promise<unknown> } {
  const entries = tx.objectStore('entries');
  const bodies = tx.objectStore('bodies');
  const ops: JournalOp[] = [];
  // Deletes go first: a key freed here may be written again below, and requests run in order.
  const pending: Promise<unknown>[] = plan.deletes.map((gone) => entries.delete(gone.path));
  for (const gone of plan.deletes) {
    ops.push(
      gone.kind === 'folder'
        ? { type: 'folder', path: gone.path, before: true, after: false, times: [gone.createdAt, gone.updatedAt] }
        : { type: 'file', path: gone.path, before: fileState(gone), after: null },
    );
  }
  for (const folder of plan.report.folderPaths) {
    ops.push({ type: 'folder', path: folder, before: false, after: true });
    pending.push(entries.put(folderRecord(folder, now)));
  }
  [...plan.report.skippedPaths, ...plan.report.unchangedPaths].forEach(() => step());
  let bodyId = nextBody;
  for (const file of plan.writes) {
    const there = current.get(file.key);
    const before = there?.kind === 'file' ? fileState(there) : null;
    const entry: EntryRecord = {
      path: file.key,
      parent: parentOf(file.key),
      kind: 'file',
      size: file.size,
      bodyId: bodyId++,
      // A time the bundle leaves out: created when last updated, updated now.
      createdAt: file.createdAt ?? file.updatedAt ?? now,
      updatedAt: file.updatedAt ?? now,
      accessedAt: now,
    };
    pending.push(bodies.add(file.content, entry.bodyId), entries.put(entry).then(step));
    ops.push({ type: 'file', path: file.key, before, after: fileState(entry) });
  }
  const retired = ops.flatMap((op) =>
    op.type === 'file' && op.before ? [{ id: op.before.bodyId, size: op.before.size }] : [],
  );
  return { ops, retired, nextBody: bodyId, written: Promise.all(pending) };
}
