// A pass's first step: forgetting, both ways. The remote's record of forgets (./forget-control.ts) is applied here as
// forgets (history erased); then each mark this device holds is announced in that record and carried out on the remote
// (every file it covers deleted whatever its version, old versions redacted where the remote can). The merge then
// sees neither the record nor a covered file (./README.md, "Forgetting").

import { isMemoryToolError } from '../core/errors.js';
import { isWithin } from '../core/paths.js';
import type { JournalDraft } from '../history/journal.js';
import { record } from '../history/journal.js';
import { CONTROL_PATH, formatControl, hashNames, parseControl } from './forget-control.js';
import type { ControlFile } from './forget-control.js';
import { SEEN_KEY, covers, forgetWithMarks, randomId, readMarks, settleMarks } from './forget-marks.js';
import type { ForgetMark } from './forget-marks.js';
import { originalOf } from './conflict-names.js';
import { readLocal } from './local-files.js';
import type { LocalSnapshot } from './local-files.js';
import { RETRYABLE_KINDS, isSyncRemoteError } from './remote.js';
import type { RemoteErrorKind } from './remote.js';
import type { RemoteFile, SyncRemote } from './remote.js';
import type { PassSettings } from './sync-pass.js';

const PASS_FAILS: ReadonlySet<RemoteErrorKind> = new Set([...RETRYABLE_KINDS, 'auth', 'aborted']);
/** A delete these refuse is tried again next pass (not-found: it is gone already). */
const AGAIN: ReadonlySet<RemoteErrorKind> = new Set(['precondition', 'locked', 'not-found']);

/** A forget is not journaled: its record only carries the totals, hidden (as `tool.forget()` writes it). */
const unjournaled: JournalDraft = { actor: 'sync', command: 'forget', paths: [], ops: [], retired: [] };

/**
 * Applies the remote's new forgets here, then carries out this device's marks there. Returns the listing without the
 * record and without any file a mark still covers, and the local side read again if a forget changed it.
 */
export async function carryForgets(
  settings: PassSettings,
  listed: readonly RemoteFile[],
  local: LocalSnapshot,
): Promise<{ listing: RemoteFile[]; local: LocalSnapshot }> {
  const { tool, remote, mountKey, signal } = settings;
  const listedRecord = listed.find((file) => file.path === CONTROL_PATH);
  let listing = listed.filter((file) => file.path !== CONTROL_PATH);
  const seen = await tool.store.run('readonly', (tx) => tx.objectStore('sync').get([mountKey, SEEN_KEY]), ['sync']);
  const applied = new Set(seen?.applied ?? []);

  // The record is read when it changed since this device last read it, or when this device has something to add.
  let marks = await readMarks(tool.store, mountKey);
  const own = marks.filter((mark) => !mark.received && !applied.has(mark.id));
  let control: ControlFile | undefined;
  let controlFile: RemoteFile | null = null;
  if (listedRecord && (listedRecord.version !== seen?.remote?.version || own.length > 0)) {
    const read = await remote.read(listedRecord, { signal }).catch(unlessPassFails);
    controlFile = read?.file ?? listedRecord;
    control = read === undefined ? undefined : parseControl(read.text);
  } else if (listedRecord) {
    controlFile = listedRecord;
  }

  let changedHere = false;
  if (control) {
    const fresh = control.forgets.filter((entry) => !applied.has(entry.id));
    if (fresh.length > 0) changedHere = await applyHere(settings, control.key, fresh);
    for (const entry of fresh) applied.add(entry.id);
    if (changedHere) marks = await readMarks(tool.store, mountKey);
  }

  // This device's own forgets go into the record before any file goes, so a device that sees a file gone also sees why.
  const now = Date.now();
  let announced = own.length === 0;
  if (own.length > 0) {
    const next: ControlFile = control ?? { key: randomId(), forgets: [] };
    // One already there (a pass that stopped after writing it) is not added twice.
    const adding = own.filter((mark) => !next.forgets.some((entry) => entry.id === mark.id));
    const hashes = await hashNames(next.key, adding.map((mark) => mark.path));
    next.forgets.push(...adding.map((mark, i) => ({ id: mark.id, at: mark.at, hash: hashes[i] ?? '' })));
    try {
      if (adding.length > 0) controlFile = await remote.write(CONTROL_PATH, formatControl(next, now), controlFile, { signal });
      for (const mark of own) applied.add(mark.id);
      announced = true;
    } catch (error) {
      unlessPassFails(error);
      // Another device wrote it meanwhile: read again next pass. Refused for good (a full store): the files still go,
      // and the other devices take it for a delete (./README.md, "Forgetting").
      if (isSyncRemoteError(error) && error.kind !== 'precondition' && error.kind !== 'locked') announced = true;
    }
  }

  // Every file a mark covers goes, whatever its version; then its versions there are redacted where the remote can.
  // A redaction that fails is owed: kept with the mark (the remote id only) and tried again by the next pass.
  const done: ForgetMark[] = [];
  const owing: ForgetMark[] = [];
  const gone = new Set<string>();
  try {
    for (const mark of marks) {
      if (!announced && !mark.received) continue;
      let whole = true;
      const redact = new Set(mark.redact ?? []);
      // An entry the memory cannot take is never deleted (its path is only for showing).
      const covered = listing.filter((one) => one.refused === undefined && covers(mark.path, one.path));
      for (const file of mark.carried ? [] : covered) {
        try {
          await remote.delete(file, { signal });
          gone.add(file.path);
          if (remote.redact && file.id !== undefined) redact.add(file.id);
        } catch (error) {
          if (!isSyncRemoteError(error) || !AGAIN.has(error.kind)) throw error;
          if (error.kind === 'not-found') gone.add(file.path);
          else whole = false; // written again meanwhile, or locked: the next pass sees it
        }
      }
      for (const id of redact) {
        await remote.redact?.({ path: mark.path, version: '', id }, { signal }).then(
          () => redact.delete(id),
          (error: unknown) => {
            if (isSyncRemoteError(error) && error.kind === 'aborted') throw error;
          },
        );
      }
      if (whole) await removeFolders(remote, mark.path, covered, signal);
      if (whole && redact.size === 0) done.push(mark);
      else if (whole) owing.push({ ...mark, carried: true, redact: [...redact] });
      else if (redact.size > 0) owing.push({ ...mark, redact: [...redact] });
    }
  } finally {
    if (done.length > 0 || owing.length > 0) {
      await tool.inTurn(() => tool.write((tx) => settleMarks(tx, mountKey, done, owing)));
    }
  }
  // The merge sees neither what went nor what a mark not carried out yet still covers (written again meanwhile).
  const carried = new Set([...done, ...owing.filter((mark) => mark.carried)].map((mark) => mark.id));
  const active = marks.filter((mark) => !mark.carried && !carried.has(mark.id));
  listing = listing.filter(
    (file) => file.refused !== undefined || (!gone.has(file.path) && !active.some((mark) => covers(mark.path, file.path))),
  );

  // Written on a mount's first pass (so a forget knows the mount), then only when something changed.
  const known = seen?.applied ?? [];
  const versionNow = controlFile?.version;
  if (seen && versionNow === seen.remote?.version && applied.size === known.length) {
    return { listing, local };
  }
  await tool.inTurn(() =>
    tool.write(async (tx) => {
      const store = tx.objectStore('sync');
      const inRecord = new Set(control?.forgets.map((entry) => entry.id) ?? []);
      for (const mark of own) inRecord.add(mark.id);
      await Promise.all([
        store.put({
          mount: mountKey,
          path: SEEN_KEY,
          state: 'forgets-seen',
          // Only ids the record still holds: the rest were pruned there.
          applied: [...applied].filter((id) => inRecord.has(id) || !control),
          ...(versionNow === undefined ? {} : { remote: { path: CONTROL_PATH, version: versionNow } }),
        }),
      ]);
    }),
  );
  if (!changedHere) return { listing, local };
  return { listing, local: await readLocal(tool.store, settings.mountFolder, mountKey, settings.excluded) };
}

/**
 * Forgets here the paths the remote's new forgets name: each local path under the mount (a file, a folder above it,
 * the file a conflict copy stands for), and each its history names, hashed under the record's key and matched.
 */
async function applyHere(settings: PassSettings, key: string, fresh: readonly { id: string; hash: string }[]): Promise<boolean> {
  const { tool, mountFolder } = settings;
  const [keys, journal] = await tool.store.run(
    'readonly',
    (tx) => Promise.all([tx.objectStore('entries').getAllKeys(), tx.objectStore('journal').getAll()]),
    ['entries', 'journal'],
  );
  const names = new Set<string>(['']);
  const add = (full: string): void => {
    if (!isWithin(full, mountFolder) || full === mountFolder) return;
    for (const one of [full, originalOf(full)]) {
      if (one === undefined) continue;
      const path = one.slice(mountFolder.length);
      for (let at = path.length; at > 0; at = path.lastIndexOf('/', at - 1)) names.add(path.slice(0, at));
    }
  };
  for (const full of keys) add(full);
  for (const change of journal) {
    for (const op of change.ops) for (const full of op.type === 'move' ? [op.from, op.to] : [op.path]) add(full);
  }
  const list = [...names];
  const hashes = await hashNames(key, list);
  const byHash = new Map(hashes.map((hash, i) => [hash, list[i] ?? '']));
  let changed = false;
  for (const entry of fresh) {
    const path = byHash.get(entry.hash);
    if (path === undefined) continue;
    const target = mountFolder + path;
    const now = Date.now();
    try {
      const forgotten = await tool.inTurn(() =>
        tool.write(async (tx, remember) => {
          const done = await forgetWithMarks(tx, target, now, entry.id);
          remember(await record(tx, unjournaled, now, undefined, done.usage));
          return done;
        }),
      );
      tool.publish(forgotten.changes);
      changed = true;
    } catch (error) {
      // Nothing of it here (any more), or the mount folder itself is the memory's root: nothing to forget.
      if (!isMemoryToolError(error) || (error.code !== 'not_found' && error.code !== 'forbidden')) throw error;
    }
  }
  return changed;
}

/**
 * Removes the folders a forgotten folder leaves empty there, deepest first, where the remote keeps folders of its own
 * (a folder's name may be what had to go). One that still holds something stays.
 */
async function removeFolders(
  remote: SyncRemote,
  forgotten: string,
  deleted: readonly RemoteFile[],
  signal: AbortSignal,
): Promise<void> {
  if (!remote.removeEmptyFolder || forgotten === '') return;
  const folders = new Set<string>();
  for (const file of deleted) {
    if (!file.path.startsWith(forgotten + '/')) continue;
    for (let at = file.path.lastIndexOf('/'); at >= forgotten.length; at = file.path.lastIndexOf('/', at - 1)) {
      folders.add(file.path.slice(0, at));
    }
  }
  for (const folder of [...folders].sort((a, b) => b.length - a.length)) {
    await remote.removeEmptyFolder(folder, { signal }).catch((error: unknown) => {
      if (!isSyncRemoteError(error) || error.kind === 'aborted') throw error;
    });
  }
}

/** Rethrows a failure that stops the pass (the network, the server, the key, a stop); answers any other as undefined. */
function unlessPassFails(error: unknown): undefined {
  if (!isSyncRemoteError(error) || PASS_FAILS.has(error.kind)) throw error;
  return undefined;
}
