// Compaction: every live record moved to a fresh database and the old one deleted, so that what deletes left in the
// engine's files (LevelDB's log and tables, SQLite's free pages) goes with it. Crash-safe through a staging copy,
// a write-ahead of the whole database (./README.md, "Erase on disk").

import { wrap } from 'idb';
import type { IDBPTransaction } from 'idb';
import { MemoryToolError } from '../core/errors.js';
import { reply } from '../core/replies.js';
import { DB_VERSION, unpackTotals, upgradeMemoryDb } from './schema.js';
import type { EntryRecord, JournalRecord, MemoryDb, MemorySchema, StoreName, SyncRecord } from './schema.js';
import { databaseExists, deleteRaw, openRaw, settled } from './raw-idb.js';
import { withStorageLock } from './storage-lock.js';

/** Every record of a memory database, and where its body ids go on. */
interface Snapshot {
  entries: EntryRecord[];
  bodyKeys: number[];
  bodies: string[];
  journal: JournalRecord[];
  sync: SyncRecord[];
  /** At least the key the bodies' generator would give next: no body id is ever given to another text. */
  nextBody: number;
}

/** What {@link compactDatabase} moved. */
export interface Compacted {
  files: number;
  bodies: number;
  changes: number;
}

/** The staging copy of `dbName`: complete once its `state` store holds `complete`. */
export const stagingName = (dbName: string): string => `${dbName}~compacting`;
/** A database made and deleted to make the engine write out what it holds in memory (Chromium, below). */
const flushName = (dbName: string): string => `${dbName}~flush`;

const STAGED: readonly StoreName[] = ['entries', 'bodies', 'journal', 'sync'];

/**
 * Moves every record of `dbName` to a fresh database of that name: a snapshot taken with every other connection
 * closed (an upgrade that is then aborted), a complete staging copy, the old database deleted, the fresh one made
 * and filled in one upgrade, the copy deleted. Undefined if there is no database. Rejects with what IndexedDB said.
 */
export function compactDatabase(dbName: string, waitMs: number): Promise<Compacted | undefined> {
  return withStorageLock(dbName, async () => {
    await settleCompaction(dbName, waitMs);
    const snapshot = await snapshotOf(dbName, waitMs);
    if (!snapshot) return undefined;
    await writeStaging(dbName, snapshot, waitMs);
    await refill(dbName, snapshot, waitMs);
    await deleteRaw(stagingName(dbName), waitMs);
    return {
      files: snapshot.entries.filter((entry) => entry.kind === 'file').length,
      bodies: snapshot.bodyKeys.length,
      changes: snapshot.journal.filter((record) => !record.hidden).length,
    };
  });
}

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

/** Every record, read in an upgrade to one version more, which closes every other connection, then aborted. */
async function snapshotOf(dbName: string, waitMs: number): Promise<Snapshot | undefined> {
  let reading: Promise<Snapshot> | undefined;
  let found: number | undefined;
  try {
    const db = await openRaw(dbName, DB_VERSION + 1, waitMs, (_db, tx, oldVersion) => {
      found = oldVersion;
      if (oldVersion === DB_VERSION) {
        reading = readAll(tx);
        // Aborted once read: the database keeps its version, and nothing of this open stays.
        reading.then(
          () => tx.abort(),
          () => tx.abort(),
        );
      } else tx.abort();
    });
    db.close();
  } catch (error) {
    if (found === DB_VERSION && reading) return reading;
    if (found === 0) return undefined;
    if (found === undefined) throw error;
  }
  // Another version (older, or a newer tab's): the same error an open of this build gets.
  throw new MemoryToolError('storage', reply.storage(`VersionError: the memory is at version ${found}, not ${DB_VERSION}`));
}

async function readAll(tx: IDBTransaction): Promise<Snapshot> {
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

/** The staging copy, made and filled in one upgrade: it exists complete, or (the page closed) not at all or empty. */
async function writeStaging(dbName: string, snapshot: Snapshot, waitMs: number): Promise<void> {
  const staging = stagingName(dbName);
  await deleteRaw(staging, waitMs);
  const db = await openRaw(staging, 1, waitMs, (raw, tx) => {
    raw.createObjectStore('entries', { keyPath: 'path' });
    raw.createObjectStore('bodies');
    raw.createObjectStore('journal', { keyPath: 'id' });
    raw.createObjectStore('sync', { keyPath: ['mount', 'path'] });
    raw.createObjectStore('state');
    putAll(tx, snapshot);
    // Written last: a copy without it was cut short and is deleted, never used.
    tx.objectStore('state').put({ nextBody: snapshot.nextBody }, 'complete');
  });
  db.close();
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
async function refill(dbName: string, snapshot: Snapshot, waitMs: number): Promise<void> {
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
function putAll(tx: IDBTransaction, snapshot: Snapshot): void {
  const entries = tx.objectStore('entries');
  for (const entry of snapshot.entries) entries.put(entry);
  const bodies = tx.objectStore('bodies');
  snapshot.bodyKeys.forEach((key, i) => bodies.put(snapshot.bodies[i], key));
  const journal = tx.objectStore('journal');
  for (const record of snapshot.journal) journal.put(record);
  const sync = tx.objectStore('sync');
  for (const record of snapshot.sync) sync.put(record);
}
