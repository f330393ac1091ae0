// Forgetting for good: a path with every copy of its contents the history holds, or the whole history, each in one
// transaction. Neither is journaled, so neither can be undone: that is their point (./README.md, "Forgetting").

import type { MemoryChange } from '../core/change-events.js';
import { MemoryToolError } from '../core/errors.js';
import { MEMORY_ROOT, isWithin } from '../core/paths.js';
import { deleteEntries, subtreeRange } from '../storage/entries.js';
import { readTotals } from '../storage/optimistic-totals.js';
import type { JournalOp, JournalRecord, Totals } from '../storage/schema.js';
import type { MemoryTx } from '../storage/store.js';
import { plainStore, writer } from '../storage/store.js';
import { lostRecord, mergeMarks } from './lost-marks.js';
import { recordSize } from './record-size.js';
import { undoReply } from './undo-replies.js';

type WriteTx = MemoryTx<'readwrite'>;

/** What {@link forgetPath} did; the totals after it go in a totals record (the caller's `record`, history off). */
export interface Forgotten {
  /** The entries taken out of the memory: the path, and all below it for a folder. */
  deleted: string[];
  /** History entries deleted: all they held was forgotten. */
  removed: number[];
  /** History entries that keep their other steps; they can no longer be undone. */
  trimmed: number[];
  /** Files outside the path that hold a version of what was there (a rename or edit took it on): left as they are. */
  keptIn: string[];
  changes: MemoryChange[];
  usage: Totals;
}

/** A name the forgotten contents had: `prefix` and all below it, in the changes up to id `until`. */
interface Name {
  prefix: string;
  until: number;
}

/**
 * Erases `key` from the memory and from the history: every version that was ever at it (or below it), under the
 * names a rename brought it from, and every version made from those since (an edit, a move elsewhere), unless a file
 * outside `key` holds it now. Steps that name or hold any of it go from their entries, and those bodies are deleted.
 * `also`: more paths forgotten with it in the same way (a synced file's conflict copies, ../sync/forget-marks.ts).
 */
export async function forgetPath(tx: WriteTx, key: string, also: readonly string[] = []): Promise<Forgotten> {
  if (key === MEMORY_ROOT) throw new MemoryToolError('forbidden', undoReply.forgetRoot());
  const entries = tx.objectStore('entries');
  const keys = [key, ...also.filter((other) => !isWithin(other, key))];
  const [lives, belows, records, usage] = await Promise.all([
    Promise.all(keys.map((one) => entries.get(one))),
    Promise.all(keys.map((one) => entries.getAll(subtreeRange(one)))),
    tx.objectStore('journal').getAll(),
    readTotals(tx),
  ]);
  const live = lives[0];
  const gone = keys.flatMap((_, i) => {
    const here = lives[i];
    return here ? [here, ...(belows[i] ?? [])] : [];
  });
  const changes = records.filter((record) => !record.hidden);
  const names = keys.flatMap((one) => namesOf(one, changes));
  const named = (path: string, id: number): boolean =>
    names.some((name) => id <= name.until && isWithin(path, name.prefix));

  // The bodies to delete: those of the entries going, and those the history holds under the names, then every body
  // a step made from one of them; not one a file outside `key` holds now.
  const goneBodies = new Set(gone.flatMap((entry) => (entry.bodyId === undefined ? [] : [entry.bodyId])));
  const forgotten = new Set<number>();
  const kept = new Map<number, string>();
  const byBody = entries.index('bodyId');
  const consider = async (ids: number[]): Promise<boolean> => {
    const fresh = [...new Set(ids)].filter((id) => !forgotten.has(id) && !kept.has(id));
    const holders = await Promise.all(fresh.map((id) => (goneBodies.has(id) ? undefined : byBody.getKey(id))));
    fresh.forEach((id, i) => {
      const holder = holders[i];
      if (holder === undefined) forgotten.add(id);
      else kept.set(id, holder);
    });
    return holders.includes(undefined);
  };
  const underNames = changes.flatMap((record) =>
    record.ops.flatMap((op) => (pathsOfOp(op).some((path) => named(path, idOf(record))) ? bodiesOf(op) : [])),
  );
  for (let grew = await consider([...goneBodies, ...underNames]); grew; ) {
    const touching = changes.flatMap((record) =>
      record.ops.flatMap((op) => (bodiesOf(op).some((id) => forgotten.has(id)) ? bodiesOf(op) : [])),
    );
    grew = await consider(touching);
  }

  // Each entry without the steps and paths that name or hold any of it: whole, trimmed, or gone.
  const dropped = (op: JournalOp, id: number): boolean =>
    pathsOfOp(op).some((path) => named(path, id)) || bodiesOf(op).some((body) => forgotten.has(body));
  const removed: number[] = [];
  const trimmed: JournalRecord[] = [];
  const released: number[] = [];
  // Bodies a file outside `key` keeps whose writing step goes: blame says their lines were forgotten (ids only).
  const erased = new Set<number>();
  let journalBytes = 0;
  let journalEntries = 0;
  for (const record of changes) {
    const id = idOf(record);
    const lost = record.ops.filter((op) => dropped(op, id));
    const lostPaths = new Set(lost.flatMap(pathsOfOp));
    for (const op of lost) if (op.type === 'file' && op.after && kept.has(op.after.bodyId)) erased.add(op.after.bodyId);
    const ops = lost.length === 0 ? record.ops : record.ops.filter((op) => !dropped(op, id));
    const listed = record.paths.filter((path) => !lostPaths.has(path) && !named(path, id));
    // An entry keeps only the contents its steps left still show (for `change(id)`); it is not undone any more.
    const shown = new Set(ops.flatMap(bodiesOf));
    const retains = record.retains.filter((body) => !forgotten.has(body) && (lost.length === 0 || shown.has(body)));
    if (lost.length === 0 && listed.length === record.paths.length && retains.length === record.retains.length) {
      journalBytes += record.bytes;
      journalEntries++;
      continue;
    }
    released.push(...record.retains.filter((body) => !forgotten.has(body) && !retains.includes(body)));
    // Gone whole when it lost steps and no file step or move is left (the folders it made or removed around the
    // forgotten files say nothing on their own), or when nothing at all is left.
    if (lost.length > 0 ? !ops.some((op) => op.type !== 'folder') : ops.length === 0 && listed.length === 0) {
      removed.push(id);
      continue;
    }
    // Listed paths all gone, steps left: the entry names those instead.
    const paths = listed.length > 0 ? listed : [...new Set(ops.flatMap(pathsOfOp))].slice(0, 20);
    const sizes = bodySizes(record.ops);
    const left: JournalRecord = { ...record, ops, paths, retains, undoable: false, forgotten: true, bytes: 0 };
    left.bytes = recordSize(left) + retains.reduce((sum, body) => sum + (sizes.get(body) ?? 0), 0);
    trimmed.push(left);
    journalBytes += left.bytes;
    journalEntries++;
  }
  if (gone.length === 0 && forgotten.size === 0 && removed.length === 0 && trimmed.length === 0) {
    throw new MemoryToolError('not_found', undoReply.nothingToForget(key));
  }

  // A body an entry no longer keeps goes if no file and no entry left holds it: read before any write, so that every
  // write goes out in one run with the totals record after it (a closing page in Firefox commits what was sent).
  const loose = [...new Set(released)];
  const fileHolders = await Promise.all(loose.map((id) => byBody.getKey(id)));
  const removedIds = new Set(removed);
  const trimmedById = new Map(trimmed.map((record) => [idOf(record), record]));
  const retained = new Set(
    changes.flatMap((record) => (removedIds.has(idOf(record)) ? [] : (trimmedById.get(idOf(record)) ?? record).retains)),
  );
  const release = loose.filter((id, i) => fileHolders[i] === undefined && !retained.has(id));

  const journal = writer(tx, 'journal');
  for (const id of removed) journal.delete(id);
  for (const record of trimmed) journal.put(record);
  // Before the caller's totals record, which stays the journal's last.
  if (erased.size > 0) journal.add(lostRecord({ forgotten: [...erased] }));
  const after = deleteEntries(tx, gone, usage, live?.kind === 'folder' && keys.length === 1 ? key : undefined).usage;
  const bodies = writer(tx, 'bodies');
  for (const id of [...forgotten, ...release]) bodies.delete(id);
  const { holder, ...rest } = after;
  return {
    deleted: gone.map((entry) => entry.path),
    removed,
    trimmed: trimmed.map(idOf),
    keptIn: [...new Set(kept.values())].sort(),
    changes: keys.flatMap((one, i): MemoryChange[] => [
      ...(lives[i] ? [{ type: 'delete' as const, path: one }] : []),
      { type: 'forget', path: one },
    ]),
    usage: { ...rest, journalBytes, journalEntries, ...(holder === undefined ? {} : { holder }) },
  };
}

/**
 * Empties the journal and deletes every body no file holds (those the history kept, and any nothing held); the
 * totals after it, or undefined when there was nothing to clear.
 */
export async function clearJournal(tx: WriteTx): Promise<{ removed: number; usage: Totals } | undefined> {
  const bodyStore = plainStore(tx, 'bodies');
  const [records, usage, bodyIds, files] = await Promise.all([
    tx.objectStore('journal').getAll(),
    readTotals(tx),
    tx.objectStore('bodies').getAllKeys(),
    tx.objectStore('entries').getAll(),
  ]);
  const live = new Set(files.flatMap((entry) => (entry.bodyId === undefined ? [] : [entry.bodyId])));
  const old = bodyIds.filter((id) => !live.has(id));
  const removed = records.filter((record) => !record.hidden).length;
  if (removed === 0 && old.length === 0) return undefined;
  plainStore(tx, 'journal').clear();
  for (const id of old) bodyStore.delete(id);
  // What blame says of the lines written before: cleared, or still forgotten where a file keeps a forgotten body.
  const forgotten = (mergeMarks(records.flatMap((record) => (record.lost ? [record.lost] : [])))?.forgotten ?? []).filter(
    (id) => live.has(id),
  );
  writer(tx, 'journal').add(
    lostRecord({ clearedBelow: usage.nextBody, ...(forgotten.length > 0 ? { forgotten } : {}) }),
  );
  // The hidden record `holder` named is gone with the rest: the totals go in a new one.
  const { holder: _cleared, ...rest } = usage;
  return { removed, usage: { ...rest, journalBytes: 0, journalEntries: 0 } };
}

/**
 * The names the contents at `key` had: `key` itself in every change, and, back from each rename that brought them
 * there, the name they were moved from, in the changes up to that rename (a name taken again later is another file).
 */
function namesOf(key: string, changes: readonly JournalRecord[]): Name[] {
  const names: Name[] = [{ prefix: key, until: Number.POSITIVE_INFINITY }];
  for (let grew = true; grew; ) {
    grew = false;
    for (const record of changes) {
      const id = idOf(record);
      for (const op of record.ops) {
        if (op.type !== 'move') continue;
        for (const name of [...names]) {
          if (id > name.until) continue;
          // Moved into the name (all it moved came from `from`), or the name moved with a folder above it.
          const from = isWithin(op.to, name.prefix)
            ? op.from
            : isWithin(name.prefix, op.to)
              ? op.from + name.prefix.slice(op.to.length)
              : undefined;
          if (from === undefined) continue;
          const known = names.find((other) => other.prefix === from);
          if (known && known.until >= id) continue;
          if (known) known.until = id;
          else names.push({ prefix: from, until: id });
          grew = true;
        }
      }
    }
  }
  return names;
}

const idOf = (record: JournalRecord): number => record.id ?? 0;

/** The paths a step names. */
function pathsOfOp(op: JournalOp): string[] {
  return op.type === 'move' ? [op.from, op.to] : [op.path];
}

/** The bodies a step holds: a file's before and after, a moved file's. */
function bodiesOf(op: JournalOp): number[] {
  if (op.type === 'file') {
    return [op.before?.bodyId, op.after?.bodyId].filter((id): id is number => id !== undefined);
  }
  return op.type === 'move' && op.bodyId !== undefined ? [op.bodyId] : [];
}

/** Each body's size, from the file states the steps name. */
function bodySizes(ops: readonly JournalOp[]): Map<number, number> {
  const sizes = new Map<number, number>();
  for (const op of ops) {
    if (op.type !== 'file') continue;
    for (const state of [op.before, op.after]) if (state) sizes.set(state.bodyId, state.size);
  }
  return sizes;
}
