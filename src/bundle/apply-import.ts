// Applying a plan inside the import's readwrite transaction, with the steps that reverse it for the journal.

import { parentOf } from '../core/paths.js';
import { fileState, folderRecord } from '../storage/entries.js';
import type { RetiredBody } from '../storage/entries.js';
import type { EntryRecord, JournalOp } from '../storage/schema.js';
import { plainStore, request } from '../storage/store.js';
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
 * then cannot leave the files without their record (Firefox commits what a closing page had sent). `at(n)` is asked
 * for each bundle file in turn (n counts from 1) and what it returns runs once that file is written or skipped.
 *
 * The writes are plain requests, not idb's promises: requests run in order, so the last one's answer (and the few
 * `at` asks for) says the rest succeeded, and a failed one aborts the transaction, which rejects it. A promise per
 * request held WebKit's page for most of a second in an import of 10,000 files (./README.md, step 4).
 */
export function applyPlan(
  tx: MemoryTx<'readwrite'>,
  plan: Plan,
  current: ReadonlyMap<string, EntryRecord>,
  nextBody: number,
  now: number,
  at: (filesDone: number) => (() => void) | undefined,
): Applied & { written: Promise<unknown> } {
  const entries = plainStore(tx, 'entries');
  const bodies = plainStore(tx, 'bodies');
  const ops: JournalOp[] = [];
  const waited: Promise<unknown>[] = [];
  let last: IDBRequest | undefined;
  /** The last request `waited` listens to (one listener a request: `request` sets its onsuccess). */
  let listened: IDBRequest | undefined;
  // Deletes go first: a key freed here may be written again below, and requests run in order.
  for (const gone of plan.deletes) {
    last = entries.delete(gone.path);
    ops.push(
      gone.kind === 'folder'
        ? { type: 'folder', path: gone.path, before: true, after: false, times: [gone.createdAt, gone.updatedAt] }
        : { type: 'file', path: gone.path, before: fileState(gone), after: null },
    );
  }
  for (const folder of plan.report.folderPaths) {
    ops.push({ type: 'folder', path: folder, before: false, after: true });
    last = entries.put(folderRecord(folder, now));
  }
  let filesDone = 0;
  for (let i = plan.report.skippedPaths.length + plan.report.unchangedPaths.length; i > 0; i--) at(++filesDone)?.();
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
    bodies.add(file.content, entry.bodyId);
    last = entries.put(entry);
    const then = at(++filesDone);
    if (then) {
      listened = last;
      waited.push(request(last).then(then));
    }
    ops.push({ type: 'file', path: file.key, before, after: fileState(entry) });
  }
  if (last && last !== listened) waited.push(request(last));
  const retired = ops.flatMap((op) =>
    op.type === 'file' && op.before ? [{ id: op.before.bodyId, size: op.before.size }] : [],
  );
  return { ops, retired, nextBody: bodyId, written: Promise.all(waited) };
}
