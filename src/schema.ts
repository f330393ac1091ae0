// The IndexedDB schema: object stores, indexes, record shapes, and the upgrade from every older version.
// Metadata and bodies live apart so that listing or moving a folder never reads a file's content.

import type { DBSchema, IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';

/** Bump on every schema change and add its step to {@link upgradeMemoryDb}. */
export const DB_VERSION = 2;

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
  /** Last `view` (coarse: refreshed at most every {@link ACCESS_GRANULARITY_MS}); for expiry. */
  accessedAt?: number;
}

/** A file as a journal entry remembers it: a reference to its body, never a copy. */
export interface FileState {
  bodyId: number;
  size: number;
  createdAt: number;
  updatedAt: number;
}

/** One step of a journaled change, enough to check and to reverse it. */
export type JournalOp =
  | { type: 'file'; path: string; before: FileState | null; after: FileState | null }
  | { type: 'folder'; path: string; before: boolean; after: boolean }
  | { type: 'move'; from: string; to: string };

/** One change, as `tool.history()` returns it. */
export interface JournalRecord {
  id?: number;
  /** Milliseconds since the epoch. */
  at: number;
  /** Who made it: `claude` (the tool runner), `user` (the app, an undo), `expire`, or the app's own word. */
  actor: string;
  /** The command (`create`, `str_replace`, …, `undo`, `expire`). */
  command: string;
  /** The paths it touched, as given (first ones only for big changes). */
  paths: string[];
  ops: JournalOp[];
  /** Body ids this entry keeps alive (the contents it replaced or deleted), for undo and diffs. */
  retains: number[];
  /** Bytes of the retained bodies. */
  bytes: number;
  /** False when the change was too big to keep (its old contents were dropped). */
  undoable: boolean;
  /** Set once undone. */
  undone?: boolean;
  /** For an undo: the id of the change it reversed. */
  undoOf?: number;
}

/** Running totals, so limits are checked without scanning the store. */
export interface UsageRecord {
  bytes: number;
  files: number;
  /**
   * Key of the next body (`usage` only). Ids are taken from here, read with the totals every write reads
   * anyway, so a write need not wait for the store to hand out a key before writing the entry.
   */
  nextBody?: number;
}

export interface MemorySchema extends DBSchema {
  entries: { key: string; value: EntryRecord; indexes: { parent: string; bodyId: number } };
  /** File contents, out-of-line auto-increment keys referenced by `EntryRecord.bodyId`. */
  bodies: { key: number; value: string };
  /** Small records: `usage` (live files) and `journal` (retained history). */
  meta: { key: string; value: UsageRecord };
  /** The bounded history of changes, oldest first; `retains` is multi-entry so a body's holders are one lookup. */
  journal: { key: number; value: JournalRecord; indexes: { retains: number } };
}

/** `accessedAt` is refreshed when older than this: a `view` stays a read, not a write, almost always. */
export const ACCESS_GRANULARITY_MS = 60 * 60 * 1000;

export type MemoryDb = IDBPDatabase<MemorySchema>;
export type StoreName = StoreNames<MemorySchema>;

/** Creates or migrates the stores; runs inside the browser's versionchange transaction. */
/** Each step runs when the database is older than it and the target is at least it (so tests can build old versions). */
export function upgradeMemoryDb(
  db: MemoryDb,
  oldVersion: number,
  newVersion: number | null,
  transaction: IDBPTransaction<MemorySchema, StoreName[], 'versionchange'>,
): void {
  const target = newVersion ?? DB_VERSION;
  if (oldVersion < 1 && target >= 1) {
    const entries = db.createObjectStore('entries', { keyPath: 'path' });
    entries.createIndex('parent', 'parent');
    db.createObjectStore('bodies', { autoIncrement: true });
    db.createObjectStore('meta');
  }
  if (oldVersion < 2 && target >= 2) {
    // Version 2: history and undo. Existing files keep their bodies; the history starts empty.
    transaction.objectStore('entries').createIndex('bodyId', 'bodyId');
    db.createObjectStore('journal', { keyPath: 'id', autoIncrement: true }).createIndex('retains', 'retains', {
      multiEntry: true,
    });
  }
}
