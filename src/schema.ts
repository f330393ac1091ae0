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
  /** The memory's totals after this change (indexed: the newest is one key lookup). */
  totals?: TotalsKey;
  /** Not a change: the record that carries the totals when no history is kept (always id {@link TOTALS_ID}). */
  hidden?: true;
}

/**
 * The running totals, so limits and the history's bounds are checked without scanning a store. Each journal
 * entry carries them as they were after its change (as a {@link TotalsKey}, in an index), so a write reads its
 * bookkeeping with one key lookup and writes it with the journal entry it adds anyway. Only with the history
 * off do they need a record of their own (the hidden {@link TOTALS_ID} record).
 */
export interface UsageRecord {
  /** Orders the totals: each write's are one more than those it read. */
  seq: number;
  /** UTF-8 bytes of all files. */
  bytes: number;
  files: number;
  /**
   * Key of the next body for edits and imports: read with the totals every write reads anyway, so they need not
   * wait for the store to hand out a key before writing the entry. (A create's early body takes the store's key,
   * and this moves past it.)
   */
  nextBody: number;
  /** Bytes of the old contents the history keeps. */
  journalBytes: number;
  /** Entries in the history. */
  journalEntries: number;
}

/** The totals of an empty memory. */
export const EMPTY_USAGE: Readonly<UsageRecord> = { seq: 0, bytes: 0, files: 0, nextBody: 1, journalBytes: 0, journalEntries: 0 };

/** {@link UsageRecord} as an index key: `seq` first, so the newest totals sort last. */
export type TotalsKey = [seq: number, bytes: number, files: number, nextBody: number, journalBytes: number, journalEntries: number];

export const toTotalsKey = (u: UsageRecord): TotalsKey => [u.seq, u.bytes, u.files, u.nextBody, u.journalBytes, u.journalEntries];

export const fromTotalsKey = ([seq, bytes, files, nextBody, journalBytes, journalEntries]: TotalsKey): UsageRecord => ({
  seq,
  bytes,
  files,
  nextBody,
  journalBytes,
  journalEntries,
});

/** Key of the hidden journal record that carries the totals of writes made with the history off. */
export const TOTALS_ID = 0;

/** The hidden record holding `usage` (history off, or folded in by the upgrade). */
export function totalsRecord(usage: UsageRecord): JournalRecord {
  return { id: TOTALS_ID, hidden: true, at: 0, actor: '', command: '', paths: [], ops: [], retains: [], bytes: 0, undoable: false, totals: toTotalsKey(usage) };
}

/** What version 2 kept in its `meta` store: `usage` (`{bytes, files, nextBody?}`) and `journal` (`{bytes, files}`). */
interface LegacyTotals {
  bytes: number;
  files: number;
  nextBody?: number;
}

export interface MemorySchema extends DBSchema {
  entries: { key: string; value: EntryRecord; indexes: { parent: string; bodyId: number } };
  /** File contents, out-of-line auto-increment keys referenced by `EntryRecord.bodyId`. */
  bodies: { key: number; value: string };
  /**
   * The bounded history of changes, oldest first; `retains` is multi-entry so a body's holders are one lookup,
   * and `totals` finds the newest totals.
   */
  journal: { key: number; value: JournalRecord; indexes: { retains: number; totals: TotalsKey } };
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
    legacy(db).createObjectStore('meta');
  }
  if (oldVersion < 2 && target >= 2) {
    // Version 2: history and undo. Existing files keep their bodies; the history starts empty.
    transaction.objectStore('entries').createIndex('bodyId', 'bodyId');
    db.createObjectStore('journal', { keyPath: 'id', autoIncrement: true }).createIndex('retains', 'retains', {
      multiEntry: true,
    });
  }
  if (oldVersion < 3 && target >= 3) {
    // Version 3: the totals move from the `meta` store into the journal (see UsageRecord), so a write has one
    // lookup and no record of its own for them. The requests keep the versionchange transaction open.
    transaction.objectStore('journal').createIndex('totals', 'totals');
    void foldTotals(db, transaction).catch(() => {
      try {
        transaction.abort();
      } catch {
        // Already over: its own failure fails the open.
      }
    });
  }
}

/** `db` and `transaction` as versions 1 and 2 had them, with the `meta` store the current schema lacks. */
const legacy = (db: unknown) =>
  db as { createObjectStore(name: 'meta'): unknown; deleteObjectStore(name: 'meta'): void };
const legacyMeta = (transaction: unknown) =>
  (transaction as { objectStore(name: 'meta'): { get(key: string): Promise<LegacyTotals | undefined> } }).objectStore('meta');

async function foldTotals(db: MemoryDb, transaction: IDBPTransaction<MemorySchema, StoreName[], 'versionchange'>): Promise<void> {
  const meta = legacyMeta(transaction);
  const [usage, journal, lastBody] = await Promise.all([
    meta.get('usage'),
    meta.get('journal'),
    transaction.objectStore('bodies').openKeyCursor(null, 'prev'),
  ]);
  legacy(db).deleteObjectStore('meta');
  if (!usage && !journal && !lastBody) return;
  const last = typeof lastBody?.key === 'number' ? lastBody.key : 0;
  await transaction.objectStore('journal').put(
    totalsRecord({
      seq: 1,
      bytes: usage?.bytes ?? 0,
      files: usage?.files ?? 0,
      nextBody: Math.max(usage?.nextBody ?? 1, last + 1),
      journalBytes: journal?.bytes ?? 0,
      journalEntries: journal?.files ?? 0,
    }),
  );
}
