// What a pass brings here, applied in one readwrite transaction and journaled as one change by the actor `sync`
// (undoable as one, heard by the page and the other tabs), with the baseline updated in the same transaction.
// Each step holds only if the file is still as the pass saw it (optimistic concurrency on the body id).

import type { MemoryChange } from '../core/change-events.js';
import { ancestorsOf, parentOf } from '../core/paths.js';
import { record } from '../history/journal.js';
import { fileState, folderRecord, getEntry, subtreeRange } from '../storage/entries.js';
import type { RetiredBody } from '../storage/entries.js';
import { readTotals } from '../storage/optimistic-totals.js';
import type { EntryRecord, JournalOp } from '../storage/schema.js';
import type { ToolInternals } from '../tool/internals.js';
import { sendBaseline } from './baseline.js';
import { markedIn } from './forget-marks.js';
import { checkWrite, pathRefusal } from './local-refusals.js';
import type { BaselineUpdate } from './baseline.js';
import type { RemoteFile } from './remote.js';

/** The remote side a step agrees on once applied: the baseline it leaves. */
export interface Agreed {
  sha256: string;
  remote: RemoteFile;
}

export type LocalStep =
  /** `expect`: the body the file must still have (null: no file there). */
  /** `aside`: this memory's version, kept beside as a conflict copy; the write lands only if the copy does too. */
  /** `overFolder`: a folder of the mount at the path gives way if it is empty (never another mount's folder). */
  | {
      op: 'write';
      path: string;
      text: string;
      expect: number | null;
      agreed?: Agreed;
      aside?: { path: string; text: string };
      overFolder?: boolean;
    }
  | { op: 'delete'; path: string; expect: number }
  | { op: 'move'; from: string; to: string; expect: number; agreed?: Agreed };

export interface LocalOutcome {
  /** Paths (the remote's) written, deleted or moved to. */
  applied: string[];
  /** Steps dropped because the file changed here since the pass looked (the next pass sees the change). */
  changed: string[];
  /** Writes the memory refused (its limits, its secret filter, its path rules, the app's `beforeWrite`). */
  refused: { path: string; reason: string }[];
  /** The body each written or moved file now has, by path. */
  bodies: Map<string, number>;
}

const DELETES_FIRST: Record<LocalStep['op'], number> = { delete: 0, move: 1, write: 2 };

/** Applies `steps` (deletes, then moves, then writes) and `updates` to the baseline, in one transaction. */
export async function applyLocal(
  tool: ToolInternals,
  mountFolder: string,
  mountKey: string,
  steps: readonly LocalStep[],
  updates: readonly BaselineUpdate[],
  actor = 'sync',
  /** False for the person's own steps (resolving a conflict): the next pass sees them as local changes. */
  mirrored = true,
): Promise<LocalOutcome> {
  const ordered = [...steps].sort((a, b) => DELETES_FIRST[a.op] - DELETES_FIRST[b.op]);
  const outcome: LocalOutcome = { applied: [], changed: [], refused: [], bodies: new Map() };
  if (ordered.length === 0 && updates.length === 0) return outcome;
  const changes: MemoryChange[] = [];
  await tool.inTurn(() =>
    tool.write(async (tx, remember) => {
      // Every read first; from the first write on, nothing is awaited until the journal record is sent.
      const above = [...ancestorsOf(mountFolder + '/x')];
      // Only a folder giving way to a file needs the whole mount (what lies below it); else the steps' paths will do,
      // so a big pull's batches each read what they touch, not every file pulled before them.
      const whole = ordered.some((step) => step.op === 'write' && step.overFolder === true);
      const [inside, aboveEntries, totals, forgotten] = await Promise.all([
        whole ? tx.objectStore('entries').getAll(subtreeRange(mountFolder)) : Promise.all(touchedKeys(mountFolder, ordered).map((key) => getEntry(tx, key))),
        Promise.all(above.map((key) => getEntry(tx, key))),
        readTotals(tx),
        markedIn(tx, mountKey),
      ]);
      const byKey = new Map<string, EntryRecord>();
      for (const entry of [...inside, ...aboveEntries]) if (entry) byKey.set(entry.path, entry);
      outcome.applied = [];
      outcome.changed = [];
      outcome.refused = [];
      outcome.bodies = new Map();
      changes.length = 0;

      const now = Date.now();
      const ops: JournalOp[] = [];
      const retired: RetiredBody[] = [];
      const baseline: BaselineUpdate[] = [...updates];
      const pending: Promise<unknown>[] = [];
      const entries = tx.objectStore('entries');
      const bodies = tx.objectStore('bodies');
      let { bytes, files, nextBody } = totals;

      const bodyAt = (key: string): number | null | 'folder' => {
        const entry = byKey.get(key);
        if (!entry) return null;
        return entry.kind === 'folder' ? 'folder' : (entry.bodyId ?? 0);
      };
      /** Makes the missing folders above `key`; false when a file is in the way. */
      const makeParents = (key: string): boolean => {
        const missing: string[] = [];
        for (const folder of ancestorsOf(key)) {
          const entry = byKey.get(folder);
          if (entry?.kind === 'file') return false;
          if (!entry) missing.push(folder);
        }
        for (const folder of missing) {
          const made = folderRecord(folder, now);
          byKey.set(folder, made);
          pending.push(entries.put(made));
          ops.push({ type: 'folder', path: folder, before: false, after: true });
          changes.push({ type: 'write', path: folder });
        }
        return true;
      };
      const retire = (entry: EntryRecord): void => {
        if (entry.bodyId !== undefined) retired.push({ id: entry.bodyId, size: entry.size });
      };

      /** Whether anything here lies below the folder `key`. */
      /** Whether a file lies below the folder `key` (folders alone, however deep, hold nothing). */
      const holdsFile = (key: string): boolean =>
        [...byKey.values()].some((other) => other.kind === 'file' && other.path.startsWith(key + '/'));
      /** The folders below `key`, deepest first, so each is empty when it goes (and undo makes them top-down). */
      const foldersBelow = (key: string): EntryRecord[] =>
        [...byKey.values()]
          .filter((other) => other.kind === 'folder' && other.path.startsWith(key + '/'))
          .sort((a, b) => b.path.split('/').length - a.path.split('/').length);
      /** Whether `text` may be written at `key` over `replaced`, with `taken` room already spoken for. */
      const check = (key: string, text: string, replaced: EntryRecord | undefined, taken: { files: number; bytes: number }) =>
        checkWrite(tool, key, text, replaced, { files: files + taken.files, bytes: bytes + taken.bytes });

      for (const step of ordered) {
        if (step.op === 'delete') {
          const key = mountFolder + step.path;
          const entry = byKey.get(key);
          if (!entry || bodyAt(key) !== step.expect) {
            outcome.changed.push(step.path);
            continue;
          }
          byKey.delete(key);
          pending.push(entries.delete(key));
          ops.push({ type: 'file', path: key, before: fileState(entry), after: null });
          retire(entry);
          bytes -= entry.size;
          files--;
          changes.push({ type: 'delete', path: key });
          if (mirrored) baseline.push({ path: step.path, clear: true });
          outcome.applied.push(step.path);
        } else if (step.op === 'move') {
          const from = mountFolder + step.from;
          const to = mountFolder + step.to;
          const entry = byKey.get(from);
          // A path forgotten since the pass looked takes nothing from the remote (./forget-marks.ts).
          if (!entry || bodyAt(from) !== step.expect || byKey.has(to) || (step.agreed && forgotten(step.to))) {
            outcome.changed.push(step.from);
            continue;
          }
          const refusal = pathRefusal(to, tool);
          if (refusal || !makeParents(to)) {
            outcome.refused.push({ path: step.to, reason: refusal ?? 'a file here is in the way of its folder' });
            continue;
          }
          const moved: EntryRecord = { ...entry, path: to, parent: parentOf(to) };
          byKey.delete(from);
          byKey.set(to, moved);
          pending.push(entries.delete(from), entries.put(moved));
          const op: JournalOp = { type: 'move', from, to, kind: 'file' };
          if (entry.bodyId !== undefined) op.bodyId = entry.bodyId;
          ops.push(op);
          changes.push({ type: 'rename', path: to, from });
          if (mirrored) baseline.push({ path: step.from, clear: true });
          if (step.agreed) baseline.push({ path: step.to, base: { local: entry.bodyId ?? 0, ...step.agreed } });
          outcome.bodies.set(step.to, entry.bodyId ?? 0);
          outcome.applied.push(step.to);
        } else {
          const key = mountFolder + step.path;
          // A folder here that holds no file (empty, or only empty folders) takes no part in a clash: a file of its
          // name takes its place.
          const folder = byKey.get(key);
          const emptyFolder = step.overFolder && folder?.kind === 'folder' && !holdsFile(key) ? folder : undefined;
          const entry = emptyFolder ? undefined : folder;
          const asideKey = step.aside && mountFolder + step.aside.path;
          // A path forgotten since the pass looked takes nothing from the remote (./forget-marks.ts).
          const forgottenHere = step.agreed !== undefined && forgotten(step.path);
          if ((emptyFolder ? null : bodyAt(key)) !== step.expect || (asideKey !== undefined && byKey.has(asideKey)) || forgottenHere) {
            outcome.changed.push(step.path);
            continue;
          }
          // A conflict's pull lands only with the copy that keeps this memory's version: both or neither.
          const copy = step.aside && asideKey !== undefined ? check(asideKey, step.aside.text, undefined, { files: 0, bytes: 0 }) : undefined;
          const taken = { files: copy ? 1 : 0, bytes: copy?.size ?? 0 };
          const main = copy?.why ? undefined : check(key, step.text, entry, taken);
          let why = copy?.why ?? main?.why;
          if (!why && !makeParents(key)) why = 'a file here is in the way of its folder';
          if (why || !main) {
            const lasting = !copy?.why && main?.lasting === true;
            const reason = copy?.why ? `it conflicts with the version here, whose copy cannot be kept (${copy.why}): the version here stays` : (why ?? '');
            outcome.refused.push({ path: step.path, reason });
            if (step.agreed && lasting) {
              baseline.push({
                path: step.path,
                skip: {
                  path: step.path,
                  reason,
                  refusedBy: 'local',
                  remoteVersion: step.agreed.remote.version,
                  ...(step.expect === null ? {} : { local: step.expect }),
                },
              });
            }
            continue;
          }
          if (emptyFolder) {
            for (const gone of [...foldersBelow(key), emptyFolder]) {
              byKey.delete(gone.path);
              pending.push(entries.delete(gone.path));
              ops.push({ type: 'folder', path: gone.path, before: true, after: false, times: [gone.createdAt, gone.updatedAt] });
              changes.push({ type: 'delete', path: gone.path });
            }
          }
          if (copy && step.aside && asideKey !== undefined) {
            const asideId = nextBody++;
            const kept = fileRecord(asideKey, copy.size, asideId, now, undefined);
            byKey.set(asideKey, kept);
            pending.push(bodies.add(copy.content, asideId), entries.put(kept));
            ops.push({ type: 'file', path: asideKey, before: null, after: fileState(kept) });
            bytes += copy.size;
            files++;
            changes.push({ type: 'write', path: asideKey });
            outcome.bodies.set(step.aside.path, asideId);
            outcome.applied.push(step.aside.path);
          }
          const { content, size } = main;
          const isNew = !entry;
          const bodyId = nextBody++;
          const written = fileRecord(key, size, bodyId, now, entry);
          byKey.set(key, written);
          pending.push(bodies.add(content, bodyId), entries.put(written));
          ops.push({ type: 'file', path: key, before: entry ? fileState(entry) : null, after: fileState(written) });
          if (entry) retire(entry);
          bytes += size - (entry?.size ?? 0);
          if (isNew) files++;
          changes.push({ type: 'write', path: key });
          if (step.agreed) baseline.push({ path: step.path, base: { local: bodyId, ...step.agreed } });
          outcome.bodies.set(step.path, bodyId);
          outcome.applied.push(step.path);
        }
      }

      pending.push(sendBaseline(tx, mountKey, baseline));
      if (ops.length === 0) {
        await Promise.all(pending);
        return;
      }
      const paths = changes.map((change) => change.path);
      const recording = record(
        tx,
        { actor, command: 'sync', paths, ops, retired },
        now,
        tool.history,
        { ...totals, bytes, files, nextBody },
      );
      const [, recorded] = await Promise.all([Promise.all(pending), recording]);
      remember(recorded);
    }),
  );
  if (changes.length > 0) tool.publish(changes);
  return outcome;
}

/** The keys the steps read or write, and every folder above them. */
function touchedKeys(mountFolder: string, steps: readonly LocalStep[]): string[] {
  const keys = new Set<string>();
  for (const step of steps) {
    const paths = step.op === 'move' ? [step.from, step.to] : step.op === 'write' && step.aside ? [step.path, step.aside.path] : [step.path];
    for (const key of paths.map((path) => mountFolder + path)) for (const at of [key, ...ancestorsOf(key)]) keys.add(at);
  }
  return [...keys];
}

function fileRecord(key: string, size: number, bodyId: number, now: number, replaced: EntryRecord | undefined): EntryRecord {
  return {
    path: key,
    parent: parentOf(key),
    kind: 'file',
    size,
    bodyId,
    createdAt: replaced?.createdAt ?? now,
    updatedAt: now,
    accessedAt: now,
  };
}
