// Whole databases through plain IndexedDB, for compaction (./compact.ts): open with an upgrade step, delete, and ask
// whether one exists, each bounded so that a tab that never lets go is told, not waited on forever.

import { MemoryToolError } from '../core/errors.js';
import { reply } from '../core/replies.js';

/** A request's result, or its error. */
export function settled<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('request failed'));
  });
}

/**
 * Opens `name` (at `version`, or as it is); `upgrade` runs in the versionchange transaction and may read and write
 * in it. Rejects with the open's error (an `upgrade` that aborts gives `AbortError`), or a `storage` error once
 * another connection has kept it `blocked` for `waitMs`.
 */
export function openRaw(
  name: string,
  version: number | undefined,
  waitMs: number,
  upgrade?: (db: IDBDatabase, tx: IDBTransaction, oldVersion: number) => void,
): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = version === undefined ? indexedDB.open(name) : indexedDB.open(name, version);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let gaveUp = false;
    req.onblocked = () => {
      timer ??= setTimeout(() => {
        gaveUp = true;
        reject(new MemoryToolError('storage', reply.blocked()));
      }, waitMs);
    };
    req.onupgradeneeded = (event) => {
      clearTimeout(timer);
      const tx = req.transaction;
      if (upgrade && tx) upgrade(req.result, tx, event.oldVersion);
    };
    req.onsuccess = () => {
      clearTimeout(timer);
      const db = req.result;
      // Given up on while blocked: the connection that came late is not anyone's.
      if (gaveUp) db.close();
      db.onversionchange = () => db.close();
      resolve(db);
    };
    req.onerror = (event) => {
      clearTimeout(timer);
      // An upgrade aborted on purpose is answered here; preventDefault keeps it off the console as an uncaught error.
      event.preventDefault();
      reject(req.error ?? new Error('open failed'));
    };
  });
}

/** Deletes `name`; resolves once it is gone, rejects once another connection has kept it `blocked` for `waitMs`. */
export function deleteRaw(name: string, waitMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.deleteDatabase(name);
    let timer: ReturnType<typeof setTimeout> | undefined;
    req.onblocked = () => {
      timer ??= setTimeout(() => reject(new MemoryToolError('storage', reply.blocked())), waitMs);
    };
    req.onsuccess = () => {
      clearTimeout(timer);
      resolve();
    };
    req.onerror = () => {
      clearTimeout(timer);
      reject(req.error ?? new Error('delete failed'));
    };
  });
}

/** Whether a database `name` exists, without making one: `databases()` where the engine has it, else an open whose upgrade is aborted. */
export async function databaseExists(name: string, waitMs = 1_000): Promise<boolean> {
  const factory = indexedDB as IDBFactory & { databases?: () => Promise<IDBDatabaseInfo[]> };
  if (typeof factory.databases === 'function') {
    // Chromium leaves `databases()` unanswered while the site's data is being cleared: past the wait, the probe below.
    let late!: (nothing: undefined) => void;
    const waited = new Promise<undefined>((resolve) => (late = resolve));
    const timer = setTimeout(() => late(undefined), waitMs);
    const all = await Promise.race([factory.databases(), waited]).finally(() => clearTimeout(timer));
    if (all) return all.some((info) => info.name === name);
  }
  let made = false;
  try {
    const db = await openRaw(name, undefined, 0, (_db, tx) => {
      made = true;
      tx.abort();
    });
    db.close();
    return true;
  } catch (error) {
    if (made) return false;
    throw error;
  }
}

/** The transaction's end: resolves on `complete`, rejects on `abort` or `error`. */
export function finished(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(tx.error ?? new DOMException('aborted', 'AbortError'));
  });
}
