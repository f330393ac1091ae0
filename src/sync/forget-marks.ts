// What forgetting leaves in the sync state (store `sync`): a path's records dropped with it, and a mark per mount that
// covers it, which the next pass carries out on the remote (./README.md, "Forgetting"). Marks live beside a mount's
// baseline under keys no path takes (`forget:…`), so a baseline reset keeps them.

import { isWithin } from '../core/paths.js';
import type { Forgotten } from '../history/forget.js';
import { forgetPath } from '../history/forget.js';
import type { SyncRecord } from '../storage/schema.js';
import type { MemoryStore, MemoryTx } from '../storage/store.js';
import { isCopyOf, originalOf } from './conflict-names.js';

type WriteTx = MemoryTx<'readwrite'>;

/** A path forgotten under one mount: `path` is the remote's, '' for the whole root. */
export interface ForgetMark {
  path: string;
  /** Names the forget on every device; a mark received from the remote keeps the sender's. */
  id: string;
  at: number;
  /** Applied here from another device's record: carried out on the remote, not announced again. */
  received?: true;
  /** Its files there are deleted: it covers nothing any more (a new file at the path is a new file). */
  carried?: true;
  /** The remote ids of files deleted for it whose versions are still to be redacted. */
  redact?: string[];
}

const MARK = 'forget:';
const markRange = (mount: string): IDBKeyRange => IDBKeyRange.bound([mount, MARK], [mount, 'forget;'], false, true);
/** The record of the remote's forgets this device applied. */
export const SEEN_KEY = 'forgets-seen';

/** The local folder a mount key (`<remote id>|<folder>`, the folder a key under `/memories`) names. */
const folderOf = (mountKey: string): string => mountKey.slice(mountKey.indexOf('|/memories') + 1);

/** Whether the remote path `path` is at or below `forgotten`, or is a conflict copy of a file that is. */
export function covers(forgotten: string, path: string): boolean {
  const under = (one: string): boolean => forgotten === '' || one === forgotten || one.startsWith(forgotten + '/');
  const original = originalOf(path);
  return under(path) || (original !== undefined && under(original)) || isCopyOf(path, forgotten);
}

/** The conflict copies of `key` (files beside it whose name is its name with a conflict tag), not below it. */
export async function conflictCopiesOf(tx: WriteTx, key: string): Promise<string[]> {
  const slash = key.lastIndexOf('/');
  const parent = slash <= 0 ? '/' : key.slice(0, slash);
  const siblings = await tx.objectStore('entries').index('parent').getAllKeys(parent);
  return siblings.filter((path) => !isWithin(path, key) && isCopyOf(path, key));
}

/**
 * Forgets `key` and its conflict copies here (../history/forget.ts), drops every sync record of them, and marks the
 * path for each mount that covers it. `received`: the forget came from the remote (its id), so it is not announced
 * again. The caller journals the totals.
 */
export async function forgetWithMarks(tx: WriteTx, key: string, now: number, received?: string): Promise<Forgotten> {
  const copies = await conflictCopiesOf(tx, key);
  const forgotten = await forgetPath(tx, key, copies);
  await markForgotten(tx, key, now, received);
  return forgotten;
}

/** Drops the sync records of `key` (and its copies) in every mount that covers it, and leaves a mark in each. */
async function markForgotten(tx: WriteTx, key: string, now: number, received?: string): Promise<void> {
  const store = tx.objectStore('sync');
  const keys = await store.getAllKeys();
  const mounts = new Map<string, string>();
  for (const [mount] of keys) {
    if (mounts.has(mount)) continue;
    const folder = folderOf(mount);
    if (isWithin(key, folder)) mounts.set(mount, key.slice(folder.length));
    else if (isWithin(folder, key)) mounts.set(mount, '');
  }
  const pending: Promise<unknown>[] = [];
  for (const [mount, path] of keys) {
    const forgotten = mounts.get(mount);
    if (forgotten !== undefined && path.startsWith('/') && covers(forgotten, path)) pending.push(store.delete([mount, path]));
  }
  for (const [mount, path] of mounts) {
    const mark: ForgetMark = { path, id: received ?? randomId(), at: now, ...(received === undefined ? {} : { received: true }) };
    const record: SyncRecord = { mount, path: MARK + path, state: 'forget', forget: mark };
    pending.push(store.put(record));
  }
  await Promise.all(pending);
}

/** A mount's marks, in one read. */
export function readMarks(store: MemoryStore, mount: string): Promise<ForgetMark[]> {
  return store.run(
    'readonly',
    async (tx) => {
      const records = await tx.objectStore('sync').getAll(markRange(mount));
      return records.flatMap((record) => (record.forget ? [{ ...record.forget }] : []));
    },
    ['sync'],
  );
}

/** Whether a mark of the mount covers the remote path `path` now (a pass checks before it sends a text). */
export async function isMarked(store: MemoryStore, mount: string, path: string): Promise<boolean> {
  return (await readMarks(store, mount)).some((mark) => !mark.carried && covers(mark.path, path));
}

/**
 * Drops the marks carried out and keeps the redactions still owed by the others, each only if it is still the same
 * forget (a path forgotten again keeps its new mark).
 */
export async function settleMarks(
  tx: WriteTx,
  mount: string,
  done: readonly ForgetMark[],
  owing: readonly ForgetMark[],
): Promise<void> {
  const store = tx.objectStore('sync');
  const marks = [...done, ...owing];
  const now = await Promise.all(marks.map((mark) => store.get([mount, MARK + mark.path])));
  await Promise.all(
    marks.flatMap((mark, i): Promise<unknown>[] => {
      const record = now[i];
      if (record?.forget?.id !== mark.id) return [];
      if (done.includes(mark)) return [store.delete([mount, MARK + mark.path])];
      return [store.put({ ...record, forget: mark })];
    }),
  );
}

/** 16 random bytes as hex: an id no other forget takes. */
export function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Whether a mark of the mount (not carried out yet) covers a remote path, as this transaction sees the marks. */
export async function markedIn(tx: WriteTx, mount: string): Promise<(path: string) => boolean> {
  const records = await tx.objectStore('sync').getAll(markRange(mount));
  const marks = records.flatMap((record) => (record.forget && !record.forget.carried ? [record.forget.path] : []));
  return (path) => marks.some((mark) => covers(mark, path));
}

/** The updates but those that would record a path a mark covers (a clear always goes). */
export async function unmarked<T extends { path: string }>(tx: WriteTx, mount: string, updates: readonly T[]): Promise<T[]> {
  if (updates.length === 0) return [];
  const marked = await markedIn(tx, mount);
  return updates.filter((update) => 'clear' in update || !marked(update.path));
}
