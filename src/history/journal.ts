// The journal: each change's record, in the change's own transaction, and the lifetime of bodies (./README.md).

import { packTotals, totalsRecord, unpackTotals } from '../storage/schema.js';
import type { JournalOp, JournalRecord, LostMark, Totals } from '../storage/schema.js';
import type { MemoryTx } from '../storage/store.js';
import type { RememberedTotals } from '../storage/optimistic-totals.js';
import type { RetiredBody } from '../storage/entries.js';
import { plainStore, request, writer } from '../storage/store.js';
import { lostRecord, mergeMarks } from './lost-marks.js';
import { recordSize } from './record-size.js';
import type { ResolvedHistoryLimits } from './history-limits.js';

type WriteTx = MemoryTx<'readwrite'>;

export { DEFAULT_HISTORY_LIMITS } from './history-limits.js';
export type { HistoryLimits, ResolvedHistoryLimits } from './history-limits.js';

/** What {@link record} wrote. */
export interface Recorded {
  /** The key the store's generator gave the record: settles when its add does, inside the transaction. */
  key: Promise<number>;
  /** The totals it holds, with that key: to be called once the transaction has committed. */
  known(): RememberedTotals;
}

/** An add's key, settled in the request's own event. Its failure aborts the transaction: no one need hear it here. */
function keyOf(added: IDBRequest<IDBValidKey>): Promise<number> {
  const key = request(added) as Promise<number>;
  key.catch(() => undefined);
  return key;
}

/**
 * Every command a history entry may name: Claude's five writes, and what the app and sync do besides them. A database
 * written by a later version may hold others; an entry's `command` is shown as stored.
 */
export type HistoryCommand =
  | 'create'
  | 'str_replace'
  | 'insert'
  | 'delete'
  | 'rename'
  | 'undo'
  | 'import'
  | 'expire'
  | 'forget'
  | 'clear-history'
  | 'wipe'
  | 'sync';

/** What a change tells the journal. */
export interface JournalDraft {
  actor: string;
  command: HistoryCommand;
  paths: string[];
  ops: JournalOp[];
  retired: RetiredBody[];
  undoOf?: number;
  /** Where the change came from (`run`'s `source`), bounded by the tool. */
  source?: string;
}

/** Deletes each body that no file and no journal entry holds any more. */
export async function releaseBodies(tx: WriteTx, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const byBody = tx.objectStore('entries').index('bodyId');
  const byRetained = tx.objectStore('journal').index('retains');
  const bodies = writer(tx, 'bodies');
  await Promise.all(
    [...new Set(ids)].map(async (id) => {
      const [live, held] = await Promise.all([byBody.count(id), byRetained.count(id)]);
      if (live === 0 && held === 0) bodies.delete(id);
    }),
  );
}

/**
 * Adds `draft` to the journal with the totals after the change, and prunes it to `limits`; with the history off, the
 * totals go in a hidden record instead. The record's key proves remembered totals (../storage/README.md).
 */
export async function record(
  tx: WriteTx,
  draft: JournalDraft,
  now: number,
  limits: ResolvedHistoryLimits | undefined,
  usage: Totals,
): Promise<Recorded> {
  const retiredIds = draft.retired.map((body) => body.id);
  const seq = usage.seq + 1;
  const journal = plainStore(tx, 'journal');
  if (!limits) {
    const { holder, ...totals } = usage;
    const stored = { ...totals, seq };
    const added = journal.add(totalsRecord(stored));
    const key = keyOf(added);
    if (holder !== undefined) journal.delete(holder);
    await releaseBodies(tx, retiredIds);
    return {
      key,
      known: () => ({ key: added.result as number, totals: { ...stored, holder: added.result as number } }),
    };
  }
  const entry = fitted(
    {
      at: now,
      actor: draft.actor,
      command: draft.command,
      paths: draft.paths.slice(0, 20),
      ops: draft.ops,
      retains: [...new Set(retiredIds)],
      bytes: 0,
      undoable: true,
      ...(draft.undoOf === undefined ? {} : { undoOf: draft.undoOf }),
      ...(draft.source === undefined ? {} : { source: draft.source }),
    },
    draft.retired.reduce((sum, body) => sum + body.size, 0),
    limits.maxBytes,
  );
  const totals: JournalSize = { bytes: usage.journalBytes + entry.bytes, entries: usage.journalEntries + 1 };
  const { holder: _holder, ...rest } = usage;
  const after = (t: JournalSize): Totals => ({ ...rest, seq, journalBytes: t.bytes, journalEntries: t.entries });
  const withTotals = (t: JournalSize): JournalRecord => ({ ...entry, totals: packTotals(after(t)) });
  const added = journal.add(withTotals(totals));
  const key = keyOf(added);
  let final = totals;
  if (totals.entries > limits.maxEntries || totals.bytes > limits.maxBytes) {
    // Added before pruning, so that a body this entry retains is seen as held when pruning releases bodies.
    // Rare (once in a tenth of the bounds): the entry is then written again with the totals after pruning.
    final = await prune(tx, totals, limits);
    journal.put({ ...withTotals(final), id: await key });
  }
  if (!entry.undoable) await releaseBodies(tx, retiredIds);
  return { key, known: () => ({ key: added.result as number, totals: after(final) }) };
}

/**
 * `entry` as the journal keeps it within `maxBytes`, its `bytes` what it counts (its own size and the old contents it
 * keeps): whole; else without the contents, so not undoable; else, when even its steps are over the bound, with its
 * paths only.
 */
function fitted(entry: JournalRecord, contents: number, maxBytes: number): JournalRecord {
  const size = recordSize(entry);
  if (contents + size <= maxBytes) return { ...entry, bytes: contents + size };
  const bare: JournalRecord = { ...entry, retains: [], undoable: false };
  const bareSize = recordSize(bare);
  if (bareSize <= maxBytes) return { ...bare, bytes: bareSize };
  const pathsOnly: JournalRecord = { ...bare, ops: [] };
  return { ...pathsOnly, bytes: recordSize(pathsOnly) };
}

interface JournalSize {
  bytes: number;
  entries: number;
}

/** What a journal over the bound `max` is pruned to: a tenth below it, so pruning is rare. */
export function pruneTarget(max: number): number {
  return Math.max(1, max - Math.max(1, Math.floor(max / 10)));
}

/** Drops the oldest entries until the journal is a tenth below the bound it broke ({@link pruneTarget}). */
async function prune(tx: WriteTx, totals: JournalSize, limits: ResolvedHistoryLimits): Promise<JournalSize> {
  const journal = tx.objectStore('journal');
  const mustDrop = totals.entries > limits.maxEntries ? totals.entries - pruneTarget(limits.maxEntries) : 0;
  const byteTarget = totals.bytes > limits.maxBytes ? pruneTarget(limits.maxBytes) : limits.maxBytes;
  let { bytes, entries } = totals;
  let dropped = 0;
  let lastKey: number | undefined;
  const released: number[] = [];
  // What blame will say of the lines these entries wrote: pruned (bodies below the last one's `nextBody`).
  const marks: LostMark[] = [];
  for (;;) {
    const range = lastKey === undefined ? null : IDBKeyRange.lowerBound(lastKey, true);
    const batch = await journal.getAll(range, Math.max(mustDrop - dropped, 64));
    let more = batch.length > 0;
    for (const old of batch) {
      // The newest entry (the change being recorded) always stays.
      if (entries <= 1 || (dropped >= mustDrop && bytes <= byteTarget)) {
        more = false;
        break;
      }
      // A hidden totals record (left while the history was off) goes with the entries around it, uncounted.
      if (!old.hidden) {
        dropped++;
        entries--;
      }
      bytes -= old.bytes;
      lastKey = old.id;
      released.push(...old.retains);
      marks.push(old.lost ?? { prunedBelow: old.totals ? unpackTotals(old.totals).nextBody : 0 });
    }
    if (!more) break;
  }
  if (lastKey !== undefined) {
    // Requests run in order: the entries are gone before the release counts who still holds each body.
    writer(tx, 'journal').delete(IDBKeyRange.upperBound(lastKey));
    const mark = mergeMarks(marks);
    if (mark) writer(tx, 'journal').put(lostRecord(mark, lastKey));
    await releaseBodies(tx, released);
  }
  return { bytes, entries };
}
