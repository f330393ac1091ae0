// Reading the journal for people: the changes, newest first, and one change's texts before and after, for a diff.

import type { JournalRecord } from '../storage/schema.js';
import type { HistoryCommand } from './journal.js';
import type { MemoryTx } from '../storage/store.js';

/** One change in `tool.history()`. Paths are normalized keys. */
export interface HistoryEntry {
  /** The change's id, rising with time: what `change(id)` and `undo(id)` take. */
  id: number;
  /** When it was committed. */
  at: Date;
  /** Who made it: `claude`, `user`, `expire`, or the app's own `actor`. */
  actor: string;
  /** What made it: a memory command, or an app operation such as an undo or an import. */
  command: HistoryCommand;
  /** The paths it touched. */
  paths: string[];
  /** Whether `tool.undo(id)` may reverse it: `false` once undone, forgotten, or kept without its texts. */
  undoable: boolean;
  /** Whether a later undo reversed it. */
  undone: boolean;
  /** For an undo, the change it reversed. */
  undoOf?: number;
  /** Part of it was forgotten for good (`tool.forget`): what is left is shown, and it can no longer be undone. */
  forgotten?: true;
  /** Where it came from (`run`'s `source`, e.g. a conversation id), when the writer named one. */
  source?: string;
}

/** One file a change touched, with its text before and after (`null`: absent, or no longer kept). */
export interface ChangedFile {
  /** The file's normalized path. */
  path: string;
  /** Its text before the change, or `null`. */
  before: string | null;
  /** Its text after the change, or `null`. */
  after: string | null;
}

/** A change with what it did to each file and each move, for a diff view. */
export interface ChangeDetail extends HistoryEntry {
  /** Each file the change wrote or deleted, with its texts. */
  files: ChangedFile[];
  /** Each file or folder the change moved (a `rename`, or its undo). */
  moves: Array<{
    /** Where it was. */
    from: string;
    /** Where it went. */
    to: string;
  }>;
}

/** `tool.history()`'s options: a page of changes, newest first. */
export interface HistoryOptions {
  /** At most this many, newest first. Default 100. */
  limit?: number | undefined;
  /** Only changes by this actor (`claude`, `user`, `expire`, …). */
  actor?: string | undefined;
  /**
   * Only changes older than this id: the cursor of the next page is the `id` of the last entry of this one
   * (`history({ before: page.at(-1)?.id })`); a page shorter than `limit` is the last.
   */
  before?: number | undefined;
}

export function toHistoryEntry(record: JournalRecord): HistoryEntry {
  return {
    id: record.id ?? 0,
    at: new Date(record.at),
    actor: record.actor,
    // Stored as a string; every record shown was written from a JournalDraft, whose `command` is a HistoryCommand.
    command: record.command as HistoryCommand,
    paths: record.paths,
    undoable: record.undoable && !record.undone,
    undone: record.undone === true,
    ...(record.undoOf === undefined ? {} : { undoOf: record.undoOf }),
    ...(record.forgotten ? { forgotten: true as const } : {}),
    ...(typeof record.source === 'string' ? { source: record.source } : {}),
  };
}

/** Change `id` as `history()` shows it, or undefined (a totals record, or gone). */
export async function readEntry(
  tx: MemoryTx<'readonly'> | MemoryTx<'readwrite'>,
  id: number,
): Promise<HistoryEntry | undefined> {
  const record = await tx.objectStore('journal').get(id);
  return record && !record.hidden ? toHistoryEntry(record) : undefined;
}

export async function readHistory(tx: MemoryTx<'readonly'>, options: HistoryOptions): Promise<HistoryEntry[]> {
  const limit = options.limit ?? 100;
  const { before } = options;
  if (before !== undefined && typeof before !== 'number') throw new TypeError('history: before must be a change id');
  const range = before === undefined ? null : IDBKeyRange.upperBound(before, true);
  const out: HistoryEntry[] = [];
  for (
    let cursor = await tx.objectStore('journal').openCursor(range, 'prev');
    cursor && out.length < limit;
    cursor = await cursor.continue()
  ) {
    const record = cursor.value;
    if (!record.hidden && (options.actor === undefined || record.actor === options.actor)) {
      out.push(toHistoryEntry(record));
    }
  }
  return out;
}

export async function readChange(tx: MemoryTx<'readonly'>, id: number): Promise<ChangeDetail | undefined> {
  const record = await tx.objectStore('journal').get(id);
  if (!record || record.hidden) return undefined;
  const bodies = tx.objectStore('bodies');
  const text = async (bodyId: number | undefined): Promise<string | null> =>
    bodyId === undefined ? null : ((await bodies.get(bodyId)) ?? null);
  const files = await Promise.all(
    record.ops.flatMap((op) =>
      op.type === 'file'
        ? [
            Promise.all([text(op.before?.bodyId), text(op.after?.bodyId)]).then(([before, after]) => ({
              path: op.path,
              before,
              after,
            })),
          ]
        : [],
    ),
  );
  const moves = record.ops.flatMap((op) => (op.type === 'move' ? [{ from: op.from, to: op.to }] : []));
  return { ...toHistoryEntry(record), files, moves };
}
