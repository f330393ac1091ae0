// Compaction: every live record moved to a fresh database and the old one deleted, so that what deletes left in the
// engine's files (LevelDB's log and tables, SQLite's free pages) goes with it. Crash-safe through a staging copy,
// a write-ahead of the whole database (./README.md, "Erase on disk"). Loaded on first use.

import { MemoryToolError } from '../core/errors.js';
import { reply } from '../core/replies.js';
import { DB_VERSION } from './schema.js';
import { deleteRaw, openRaw } from './raw-idb.js';
import { putAll, readAll, refill, settleCompaction, stagingName } from './compact.js';
import type { Snapshot } from './compact.js';
import { withStorageLock } from './storage-lock.js';

/** What {@link compactDatabase} moved. */
export interface Compacted {
  files: number;
  bodies: number;
  changes: number;
}

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
