// The IndexedDB schema: object stores, indexes, record shapes, and the upgrade from every older version.
// Metadata and bodies live apart so that listing or moving a folder never reads a file's content.

import type { DBSchema, IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';

/** Bump on every schema change and add its step to {@link upgradeMemoryDb}. */
export const DB_VERSION = 1;

/** One file or folder. Keyed by its normalized path, so a folder's subtree is one key range. */
export interface EntryRecord {
  /** Normalized path, e.g. `/memories/notes/a.md` (the root itself has no record). */
  path: string;
  /** Normalized path of the folder holding it (`/memories` at the top). Indexed: listing reads one folder. */
  parent: string;
  kind: 'file' | 'folder';
  /** UTF-8 bytes of the content (0 for folders). */
  size: number;
  /** Key of the body record (files only). Stable across renames, so moving a file never touches its body. */
  bodyId?: number;
  /** Milliseconds since the epoch. */
  createdAt: number;
  updatedAt: number;
}

/** Running totals, so limits are checked without scanning the store. */
export interface UsageRecord {
  bytes: number;
  files: number;
}

export interface MemorySchema extends DBSchema {
  entries: { key: string; value: EntryRecord; indexes: { parent: string } };
  /** File contents, out-of-line auto-increment keys referenced by `EntryRecord.bodyId`. */
  bodies: { key: number; value: string };
  /** Small records: `usage`. */
  meta: { key: string; value: UsageRecord };
}

export type MemoryDb = IDBPDatabase<MemorySchema>;
export type StoreName = StoreNames<MemorySchema>;

/** Creates or migrates the stores; runs inside the browser's versionchange transaction. */
export function upgradeMemoryDb(
  db: MemoryDb,
  oldVersion: number,
  _newVersion: number | null,
  _transaction: IDBPTransaction<MemorySchema, StoreName[], 'versionchange'>,
): void {
  if (oldVersion < 1) {
    const entries = db.createObjectStore('entries', { keyPath: 'path' });
    entries.createIndex('parent', 'parent');
    db.createObjectStore('bodies', { autoIncrement: true });
    db.createObjectStore('meta');
  }
}
