// The baseline of each mount, kept in the memory's own database (store `sync`): evicted or deleted with the files it
// describes, so a baseline that exists always speaks of these very files (./README.md, "The baseline").

import type { SyncRecord } from '../storage/schema.js';
import type { MemoryTx } from '../storage/store.js';
import { unmarked } from './forget-marks.js';
import type { Baseline } from './merge-plan.js';
import type { RemoteErrorKind, RemoteFile } from './remote.js';

type AnyTx = MemoryTx<'readonly'> | MemoryTx<'readwrite'>;

/** A skipped version: refused by one side, not tried again until it changes. */
export interface Skip {
  path: string;
  reason: string;
  refusedBy: 'remote' | 'local';
  /** The remote's error kind, when an error of the remote's refused it. */
  kind?: RemoteErrorKind;
  /** The local body refused by the remote, or the remote version refused here. */
  local?: number;
  remoteVersion?: string;
}

/** The keys of one mount's records: `[mount, '/…']`. */
const mountRange = (mount: string): IDBKeyRange => IDBKeyRange.bound([mount, '/'], [mount, '0'], false, true);
/**
 * Skips live beside the baseline, under a key of their own, so a refused version never takes the place of what both
 * sides last agreed: a delete still travels, and a version back under a limit is pushed over the version last seen.
 */
const skipsOf = (mount: string): string => `${mount}\u0000skipped`;

export async function readBaseline(
  tx: AnyTx,
  mount: string,
): Promise<{ synced: Map<string, Baseline>; skipped: Map<string, Skip> }> {
  const store = tx.objectStore('sync');
  // Skip records under the mount's own key come from before skips had a key of their own (a base or a clear of the
  // path replaces them); one under the skips' key is newer and wins.
  const [records, skips] = await Promise.all([store.getAll(mountRange(mount)), store.getAll(mountRange(skipsOf(mount)))]);
  const synced = new Map<string, Baseline>();
  const skipped = new Map<string, Skip>();
  for (const record of [...records, ...skips]) {
    if (record.state === 'synced' && record.local !== undefined && record.sha256 && record.remote) {
      synced.set(record.path, { local: record.local, sha256: record.sha256, remote: { ...record.remote } });
    } else if (record.state === 'skipped' && record.reason) {
      const skip: Skip = { path: record.path, reason: record.reason, refusedBy: record.refusedBy ?? 'remote' };
      if (record.local !== undefined) skip.local = record.local;
      if (record.remote) skip.remoteVersion = record.remote.version;
      if (record.kind !== undefined) skip.kind = record.kind as RemoteErrorKind;
      skipped.set(record.path, skip);
    }
  }
  return { synced, skipped };
}

/**
 * A change to the baseline: agreed on `base` (which ends a skip), skipped (beside the base, which stays), or nothing
 * known (the path left both sides, or starts over).
 */
export type BaselineUpdate =
  | { path: string; base: Baseline }
  | { path: string; skip: Skip }
  | { path: string; clear: true };

/** Sends the updates in the caller's transaction (after one read of the mount's forget marks); it commits them. */
export function sendBaseline(tx: MemoryTx<'readwrite'>, mount: string, updates: readonly BaselineUpdate[]): Promise<unknown> {
  const store = tx.objectStore('sync');
  // A path forgotten since the pass saw it keeps no record (./forget-marks.ts), read in this same transaction.
  return unmarked(tx, mount, updates).then((kept) => Promise.all(
    kept.map((update) => {
      if ('clear' in update) return Promise.all([store.delete([mount, update.path]), store.delete([skipsOf(mount), update.path])]);
      if ('base' in update) {
        const ended = store.delete([skipsOf(mount), update.path]);
        return Promise.all([ended, store.put({
          mount,
          path: update.path,
          state: 'synced',
          local: update.base.local,
          sha256: update.base.sha256,
          remote: plainRemote(update.base.remote),
        })]);
      }
      const record: SyncRecord = {
        mount: skipsOf(mount),
        path: update.path,
        state: 'skipped',
        reason: update.skip.reason,
        refusedBy: update.skip.refusedBy,
      };
      if (update.skip.local !== undefined) record.local = update.skip.local;
      if (update.skip.kind !== undefined) record.kind = update.skip.kind;
      if (update.skip.remoteVersion !== undefined) record.remote = { path: update.path, version: update.skip.remoteVersion };
      return store.put(record);
    }),
  ));
}

/** Deletes every record of a mount (`sync.forgetBaseline()`): the next pass compares everything afresh. */
export async function clearBaseline(tx: MemoryTx<'readwrite'>, mount: string): Promise<void> {
  const store = tx.objectStore('sync');
  await Promise.all([store.delete(mountRange(mount)), store.delete(mountRange(skipsOf(mount)))]);
}

/** Deletes every mount's baseline and skips, keeping forget marks (`tool.wipe()`): the next pass pulls, never deletes. */
export async function clearAllBaselines(tx: MemoryTx<'readwrite'>): Promise<void> {
  for (let c = await tx.objectStore('sync').openCursor(); c; c = await c.continue()) {
    if (c.value.state === 'synced' || c.value.state === 'skipped') await c.delete();
  }
}

/** Only the known fields, so an adapter's extra properties (or a class) never reach structured clone. */
function plainRemote(file: RemoteFile): NonNullable<SyncRecord['remote']> {
  const plain: NonNullable<SyncRecord['remote']> = { path: file.path, version: file.version };
  if (file.sha256 !== undefined) plain.sha256 = file.sha256;
  if (file.id !== undefined) plain.id = file.id;
  if (file.size !== undefined) plain.size = file.size;
  return plain;
}
