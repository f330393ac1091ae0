// The entries store as the commands, undo, expiry and bundles use it. Metadata only: bodies keep their ids.

import { MemoryToolError } from '../core/errors.js';
import { MEMORY_ROOT, PAST_LIMITS, depthOf, parentOf, pastPathLimits } from '../core/paths.js';
import { utf8Length } from '../core/utf8.js';
import type { EntryRecord, FileState, JournalOp, Totals } from './schema.js';
import type { MemoryTx } from './store.js';
import { getRecord, writer } from './store.js';

type ReadTx = MemoryTx<'readonly'> | MemoryTx<'readwrite'>;
type WriteTx = MemoryTx<'readwrite'>;

/** A body a change took out of use, with its size (for the journal's byte bound). */
export interface RetiredBody {
  id: number;
  size: number;
}

/** The file state an entry or journal op holds. */
export function fileState(entry: {
  bodyId?: number;
  size: number;
  createdAt: number;
  updatedAt: number;
}): FileState | null {
  return entry.bodyId === undefined
    ? null
    : { bodyId: entry.bodyId, size: entry.size, createdAt: entry.createdAt, updatedAt: entry.updatedAt };
}

const ROOT_ENTRY: EntryRecord = { path: MEMORY_ROOT, parent: '', kind: 'folder', size: 0, createdAt: 0, updatedAt: 0 };

/** Every key strictly below `folder`: `folder + '/'` up to, not including, `folder + '0'` ('0' follows '/'). */
export function subtreeRange(folder: string): IDBKeyRange {
  return IDBKeyRange.bound(folder + '/', folder + '0', false, true);
}

export function getEntry(tx: ReadTx, key: string): Promise<EntryRecord | undefined> {
  return key === MEMORY_ROOT ? Promise.resolve(ROOT_ENTRY) : getRecord(tx, 'entries', key);
}

export async function readBody(tx: ReadTx, entry: EntryRecord): Promise<string> {
  return entry.bodyId === undefined ? '' : ((await getRecord(tx, 'bodies', entry.bodyId)) ?? '');
}

/** The record of a new folder at `path`. */
export function folderRecord(path: string, now: number): EntryRecord {
  return { path, parent: parentOf(path), kind: 'folder', size: 0, createdAt: now, updatedAt: now };
}

/** A move op's record of what moved: a folder, or a file with its body. */
export const movedThing = (entry: EntryRecord): { kind: 'folder' } | { kind: 'file'; bodyId?: number } =>
  entry.kind === 'folder'
    ? { kind: 'folder' }
    : entry.bodyId === undefined
      ? { kind: 'file' }
      : { kind: 'file', bodyId: entry.bodyId };

/** Deletes `gone` (the subtree of `folder` as one key range) and answers the usage after; bodies are only retired. */
export function deleteEntries(
  tx: WriteTx,
  gone: readonly EntryRecord[],
  usage: Totals,
  folder?: string,
): { ops: JournalOp[]; retired: RetiredBody[]; usage: Totals } {
  const entries = writer(tx, 'entries');
  const ops: JournalOp[] = [];
  const retired: RetiredBody[] = [];
  let bytes = 0;
  let files = 0;
  for (const entry of gone) {
    if (entry.kind === 'folder') {
      ops.push({
        type: 'folder',
        path: entry.path,
        before: true,
        after: false,
        times: [entry.createdAt, entry.updatedAt],
      });
    } else {
      bytes += entry.size;
      files++;
      const before = fileState(entry);
      ops.push({ type: 'file', path: entry.path, before, after: null });
      if (before) retired.push({ id: before.bodyId, size: before.size });
    }
    if (folder === undefined) entries.delete(entry.path);
  }
  if (folder !== undefined) {
    entries.delete(folder);
    entries.delete(subtreeRange(folder));
  }
  return { ops, retired, usage: { ...usage, bytes: usage.bytes - bytes, files: usage.files - files } };
}

/** `source` and, for a folder, every entry below it: what a move of it rewrites. */
export async function entriesToMove(tx: WriteTx, source: EntryRecord): Promise<EntryRecord[]> {
  if (source.kind !== 'folder') return [source];
  return [source, ...(await tx.objectStore('entries').getAll(subtreeRange(source.path)))];
}

/**
 * Sends the writes that move `moved` (from {@link entriesToMove}) to `to`, awaiting nothing: a command sends its
 * journal record in the same run, so a closing page cannot commit the move without it (Firefox commits what was
 * sent). `refuse` names a moved path past the limits before any write.
 */
export function sendMove(
  tx: WriteTx,
  moved: readonly EntryRecord[],
  to: string,
  refuse: (path: string, past: string) => MemoryToolError,
): void {
  const [source] = moved;
  if (!source) return;
  const from = source.path;
  checkMove(moved, to, refuse);
  const entries = writer(tx, 'entries');
  entries.delete(from);
  if (source.kind === 'folder') entries.delete(subtreeRange(from));
  for (const entry of moved) {
    const path = to + entry.path.slice(from.length);
    entries.put({ ...entry, path, parent: parentOf(path) });
  }
}

/** Throws `refuse` for the first path of `moved` (its source first) that a move to `to` puts past the path limits. */
export function checkMove(
  moved: readonly EntryRecord[],
  to: string,
  refuse: (path: string, past: string) => MemoryToolError,
): void {
  const [source] = moved;
  if (!source) return;
  const from = source.path;
  // Only a move to a deeper or longer place can put a path past a limit.
  if (source.kind === 'folder' && (depthOf(to) > depthOf(from) || utf8Length(to) > utf8Length(from))) {
    for (const entry of moved) {
      const path = to + entry.path.slice(from.length);
      const past = pastPathLimits(path);
      if (past) throw refuse(path, PAST_LIMITS[past]);
    }
  }
}

/** Moves `source`, and a folder's subtree, to `to`: {@link entriesToMove}, then {@link sendMove}. */
export async function moveTree(
  tx: WriteTx,
  source: EntryRecord,
  to: string,
  refuse: (path: string, past: string) => MemoryToolError,
): Promise<void> {
  sendMove(tx, await entriesToMove(tx, source), to, refuse);
}
