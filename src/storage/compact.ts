// Compaction's recovery and refill: a staging copy a closed page left is moved into a fresh database (or dropped),
// which every open runs first. The compaction itself is compact-run.ts, loaded on first use (./README.md, "Erase on
// disk").

import { wrap } from 'idb';
import type { IDBPTransaction } from 'idb';
import { MemoryToolError } from '../core/errors.js';
import { reply } from '../core/replies.js';
import { DB_VERSION, unpackTotals } from './schema.js';
import { upgradeMemoryDb } from './upgrade.js';
import type { EntryRecord, JournalRecord, MemoryDb, MemorySchema, StoreName, SyncRecord } from './schema.js';
import { databaseExists, deleteRaw, openRaw, settled } from './raw-idb.js';

/** Every record of a memory database, and where its body ids go on. */
export interface Snapshot {
  entries: EntryRecord[];
  bodyKeys: number[];
  bodies: string[];
  journal: JournalRecord[];
  sync: SyncRecord[];
  /** At least the key the bodies' generator would give next: no body id is ever given to another text. */
  nextBody: number;
}

/** The staging copy of `dbName`: complete once its `state` store holds `complete`. */
export const stagingName = (dbName: string): string => `${dbName}~compacting`;
/** A database made and deleted to make the engine write out what it holds in memory (Chromium, below). */
const flushName = (dbName: string): string => `${dbName}~flush`;

export const STAGED: readonly StoreName[] = ['entries', 'bodies', 'journal', 'sync'];

/**
 * Finishes a compaction a closed page left: a complete staging copy is moved into a fresh `dbName` (whatever the
 * old one holds: it may be deleted, or the original), an incomplete one is deleted (the original was not touched).
 * Run under the storage lock, before each open.
 */
export async function settleCompaction(dbName: string, waitMs: number): Promise<void> {
  const staging = stagingName(dbName);
  if (!(await databaseExists(staging))) return;
  const snapshot = await readStaging(staging, waitMs);
  if (snapshot) await refill(dbName, snapshot, waitMs);
  await deleteRaw(staging, waitMs);
}

export async function readAll(tx: IDBTransaction): Promise<Snapshot> {
  const store = (name: StoreName) => tx.objectStore(name);
  const [entries, bodyKeys, bodies, journal, sync] = await Promise.all([
    settled(store('entries').getAll()) as Promise<EntryRecord[]>,
    settled(store('bodies').getAllKeys()) as Promise<number[]>,
    settled(store('bodies').getAll()) as Promise<string[]>,
    settled(store('journal').getAll()) as Promise<JournalRecord[]>,
    settled(store('sync').getAll()) as Promise<SyncRecord[]>,
  ]);
  const totals = journal.at(-1)?.totals;
  const nextBody = Math.max(totals ? unpackTotals(totals).nextBody : 1, (bodyKeys.at(-1) ?? 0) + 1);
  return { entries, bodyKeys, bodies, journal, sync, nextBody };
}

async function readStaging(staging: string, waitMs: number): Promise<Snapshot | undefined> {
  let fresh = false;
  let db: IDBDatabase;
  try {
    db = await openRaw(staging, undefined, waitMs, (_db, tx) => {
      fresh = true;
      tx.abort();
    });
  } catch (error) {
    if (fresh) return undefined;
    throw error;
  }
  try {
    if (!db.objectStoreNames.contains('state')) return undefined;
    const tx = db.transaction([...STAGED, 'state'], 'readonly');
    const state = (await settled(tx.objectStore('state').get('complete'))) as { nextBody: number } | undefined;
    if (!state) return undefined;
    const read = await readAll(tx);
    return { ...read, nextBody: Math.max(read.nextBody, state.nextBody) };
  } finally {
    db.close();
  }
}

/**
 * Deletes `dbName` and makes it again holding `snapshot`, filled in the upgrade that makes it (all or nothing).
 * First a small database is made and deleted: in Chromium a delete compacts the deleted database's keys, but only
 * on the levels that already held them, so records still in the write buffer would be written out past it, whole;
 * the first delete writes the buffer out, the second then compacts it away.
 */
export async function refill(dbName: string, snapshot: Snapshot, waitMs: number): Promise<void> {
  const flush = flushName(dbName);
  const scratch = await openRaw(flush, 1, waitMs, (raw) => {
    raw.createObjectStore('flush').put(true, 'flush');
  });
  scratch.close();
  await deleteRaw(flush, waitMs);
  await deleteRaw(dbName, waitMs);
  let taken = false;
  const db = await openRaw(dbName, DB_VERSION, waitMs, (raw, tx, oldVersion) => {
    if (oldVersion !== 0) {
      // Made meanwhile by a build that takes no lock: left alone; the staging copy stays for the next open.
      taken = true;
      tx.abort();
      return;
    }
    const versionchange = wrap(tx) as unknown as IDBPTransaction<MemorySchema, StoreName[], 'versionchange'>;
    upgradeMemoryDb(wrap(raw) as unknown as MemoryDb, 0, DB_VERSION, versionchange);
    putAll(tx, snapshot);
    // The bodies' generator goes on where it was, so no id names another text (a sync baseline keeps ids).
    const last = snapshot.bodyKeys.at(-1) ?? 0;
    if (snapshot.nextBody - 1 > last) {
      const bodies = tx.objectStore('bodies');
      bodies.put('', snapshot.nextBody - 1);
      bodies.delete(snapshot.nextBody - 1);
    }
  }).catch((error: unknown) => {
    if (taken) {
      throw new MemoryToolError('storage', reply.storage('another tab made the memory again while it was compacted'));
    }
    throw error;
  });
  db.close();
}

/** Sends every record of `snapshot` in `tx` (a versionchange transaction): nothing is awaited between them. */
export function putAll(tx: IDBTransaction, snapshot: Snapshot): void {
  const entries = tx.objectStore('entries');
  for (const entry of snapshot.entries) entries.put(entry);
  const bodies = tx.objectStore('bodies');
  snapshot.bodyKeys.forEach((key, i) => bodies.put(snapshot.bodies[i], key));
  const journal = tx.objectStore('journal');
  for (const record of snapshot.journal) journal.put(record);
  const sync = tx.objectStore('sync');
  for (const record of snapshot.sync) sync.put(record);
}
