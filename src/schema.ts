// The IndexedDB schema: object stores, indexes, record shapes, and the upgrade from every older version.
// Metadata and bodies live apart so that listing or moving a folder never reads a file's content.

import type { DBSchema, IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';

/** Bump on every schema change and add its step to {@link upgradeMemoryDb}. */
export const DB_VERSION = 3;

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

/**
 * The one record of running totals (`meta`, key `usage`), so limits and the history's bounds are checked
 * without scanning a store. One record, so a write reads and writes its bookkeeping once.
 */
export interface UsageRecord {
  /** UTF-8 bytes of all files. */
  bytes: number;
  files: number;
  /**
   * Key of the next body. Ids are taken from here, read with the totals every write reads anyway, so a
   * write need not wait for the store to hand out a key before writing the entry.
   */
  nextBody: number;
  /** Bytes of the old contents the history keeps. */
  journalBytes: number;
  /** Entries in the history. */
  journalEntries: number;
}

/** The `usage` record of an empty memory. */
export const EMPTY_USAGE: Readonly<UsageRecord> = { bytes: 0, files: 0, nextBody: 1, journalBytes: 0, journalEntries: 0 };

/** What version 2 kept in `meta` (`usage` without the journal's totals, and `journal`). */
interface LegacyTotals {
  bytes: number;
  files: number;
  nextBody?: number;
}

export interface MemorySchema extends DBSchema {
  entries: { key: string; value: EntryRecord; indexes: { parent: string; bodyId: number } };
  /** File contents, out-of-line auto-increment keys referenced by `EntryRecord.bodyId`. */
  bodies: { key: number; value: string };
  /** The `usage` record (before version 3 also a `journal` record, folded into it by the upgrade). */
  meta: { key: string; value: UsageRecord };
  /** The bounded history of changes, oldest first; `retains` is multi-entry so a body's holders are one lookup. */
  journal: { key: number; value: JournalRecord; indexes: { retains: number } };
}

/** `accessedAt` is refreshed when older than this: a `view` stays a read, not a write, almost always. */
export const ACCESS_GRANULARITY_MS = 60 * 60 * 1000;

export type MemoryDb = IDBPDatabase<MemorySchema>;
export type StoreName = StoreNames<MemorySchema>;

/**
 * Creates or migrates the stores; runs inside the browser's versionchange transaction.
 * Each step runs when the database is older than it and the target is at least it (so tests can build old versions).
 */
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
  if (oldVersion < 3 && target >= 3) {
    // Version 3: the journal's totals and the next body id join the usage record, so a write has one record
    // of bookkeeping to read and write. The requests keep the versionchange transaction open until they end.
    void foldTotals(transaction).catch(() => transaction.abort());
  }
}

async function foldTotals(transaction: IDBPTransaction<MemorySchema, StoreName[], 'versionchange'>): Promise<void> {
  const meta = transaction.objectStore('meta');
  const legacy = meta as unknown as { get(key: string): Promise<LegacyTotals | undefined> };
  const [usage, journal, lastBody] = await Promise.all([
    legacy.get('usage'),
    legacy.get('journal'),
    transaction.objectStore('bodies').openKeyCursor(null, 'prev'),
  ]);
  const last = typeof lastBody?.key === 'number' ? lastBody.key : 0;
  await Promise.all([
    meta.put(
      {
        bytes: usage?.bytes ?? 0,
        files: usage?.files ?? 0,
        nextBody: Math.max(usage?.nextBody ?? 1, last + 1),
        journalBytes: journal?.bytes ?? 0,
        journalEntries: journal?.files ?? 0,
      },
      'usage',
    ),
    meta.delete('journal'),
  ]);
}
