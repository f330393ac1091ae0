// The IndexedDB schema: stores, indexes, record shapes, and the upgrade from every older version (./README.md).

import type { DBSchema, IDBPDatabase, StoreNames } from 'idb';

/** Bump on every schema change and add its step to `upgradeMemoryDb` (./upgrade.ts). */
export const DB_VERSION = 7;

/** One file or folder. Keyed by its normalized path, so a folder's subtree is one key range. */
export interface EntryRecord {
  path: string;
  parent: string;
  kind: 'file' | 'folder';
  size: number;
  bodyId?: number;
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
  /** `times`: a removed folder's `[createdAt, updatedAt]`, so that an undo brings it back as it was. */
  | { type: 'folder'; path: string; before: boolean; after: boolean; times?: [createdAt: number, updatedAt: number] }
  /** `kind` and `bodyId`: what moved (absent in old records), so an undo moves back only what is still there. */
  | { type: 'move'; from: string; to: string; kind?: 'file' | 'folder'; bodyId?: number };

/** One change, as `tool.history()` returns it. */
export interface JournalRecord {
  id?: number;
  at: number;
  /** Who made it: `claude` (the tool runner), `user` (the app, an undo), `expire`, or the app's own word. */
  actor: string;
  command: string;
  /** The paths it touched, as given (first ones only for big changes). */
  paths: string[];
  ops: JournalOp[];
  /** Body ids this entry keeps alive (the contents it replaced or deleted), for undo and diffs. */
  retains: number[];
  /** What it counts against `history.maxBytes`: its own estimated size and the contents it retains. */
  bytes: number;
  /** False when the change was too big to keep (its old contents were dropped). */
  undoable: boolean;
  undone?: boolean;
  /** For an undo: the id of the change it reversed. */
  undoOf?: number;
  /** Steps or paths of it were forgotten for good (`tool.forget`): what is left is shown, never undone. */
  forgotten?: true;
  totals?: StoredTotals;
  /** Where the change came from (`run`'s `source`, e.g. a conversation id); absent in older records. */
  source?: string;
  /** Not a change: a record that carries the totals of a write made with no history kept. */
  hidden?: true;
  /** On a hidden record with no totals: why the journal no longer holds some writers (../history/README.md, "Blame"). */
  lost?: LostMark;
}

/** What forgetting, a clear or pruning took from the journal, by body ids only: never a path or a text. */
export interface LostMark {
  /** Bodies files still held when `forget` erased the step that wrote them. */
  forgotten?: number[];
  /** Bodies below this id were written before the last `clearHistory()`. */
  clearedBelow?: number;
  /** Bodies below this id were written before changes the bounds pruned. */
  prunedBelow?: number;
}

/** The running totals, carried by each journal record; the last record's are the current ones (./README.md). */
export interface Totals {
  /** Counts the writes: each write's are one more than those it read. */
  seq: number;
  bytes: number;
  files: number;
  /** Key of the next new body, so a write need not wait for the store to hand one out (./README.md, "The model"). */
  nextBody: number;
  /** Bytes the history takes: the sum of its entries' `bytes` (each record's size and the old contents it keeps). */
  journalBytes: number;
  journalEntries: number;
  /** Not stored: the key of the hidden record these totals were read from, when it is the journal's last. */
  holder?: number;
}

export const EMPTY_TOTALS: Readonly<Totals> = {
  seq: 0,
  bytes: 0,
  files: 0,
  nextBody: 1,
  journalBytes: 0,
  journalEntries: 0,
};

/** {@link Totals} as stored: a tuple, without the key names an object would store and clone on every write. */
export type StoredTotals = [
  seq: number,
  bytes: number,
  files: number,
  nextBody: number,
  journalBytes: number,
  journalEntries: number,
];

export const packTotals = (u: Totals): StoredTotals => [
  u.seq,
  u.bytes,
  u.files,
  u.nextBody,
  u.journalBytes,
  u.journalEntries,
];

export const unpackTotals = ([seq, bytes, files, nextBody, journalBytes, journalEntries]: StoredTotals): Totals => ({
  seq,
  bytes,
  files,
  nextBody,
  journalBytes,
  journalEntries,
});

/** A hidden journal record carrying only `carried` (totals, or a mark): at key `id`, or at the journal's next key. */
export function hiddenRecord(carried: Pick<JournalRecord, 'totals' | 'lost'>, id?: number): JournalRecord {
  const record: JournalRecord = {
    hidden: true,
    at: 0,
    actor: '',
    command: '',
    paths: [],
    ops: [],
    retains: [],
    bytes: 0,
    undoable: false,
    ...carried,
  };
  if (id !== undefined) record.id = id;
  return record;
}

/** The hidden record holding `usage` (history off, or an upgrade): at key `id`, or at the journal's next key. */
export const totalsRecord = (usage: Totals, id?: number): JournalRecord => hiddenRecord({ totals: packTotals(usage) }, id);

export interface MemorySchema extends DBSchema {
  entries: { key: string; value: EntryRecord; indexes: { parent: string; bodyId: number } };
  bodies: { key: number; value: string };
  /** The bounded history, the last record carrying the current totals; `retains` is multi-entry. */
  journal: { key: number; value: JournalRecord; indexes: { retains: number } };
  /** What each sync mount last agreed with its remote (../sync/README.md), kept beside the files it describes. */
  sync: { key: [mount: string, path: string]; value: SyncRecord };
  /** The search index (../search/README.md): each indexed body's unique words, for scrubbing it. */
  // `pairs`: the body's biwords, packed (../search/biwords.ts).
  searchDocs: { key: number; value: { terms: string[]; pairs?: Uint8Array } };
  /** Postings of recently indexed bodies: `[term, first bodyId]` → a packed run (../search/postings.ts; older formats' values differ). */
  searchDelta: { key: [term: string, bodyId: number]; value: Uint8Array | Uint32Array | number };
  /** Main postings: term → a packed run of every body holding it, with its positions (older formats: `Uint32Array`). */
  searchTerms: { key: string; value: Uint8Array | Uint32Array };
  /** The index's own state under the key `state`: the tokenizer it was built with, and the last body indexed. */
  searchState: { key: string; value: SearchStateRecord };
}

/** What the search index has done: bodies with ids up to `indexedThrough` are indexed by tokenizer and format `tokenizer`. */
export interface SearchStateRecord {
  tokenizer: string;
  indexedThrough: number;
  /** Rows in `searchDelta`, kept by the index's transactions so a query need not count them (absent: not known yet). */
  deltaRows?: number;
}

/**
 * One file of a sync mount: the baseline of its three-way merge (`synced`), or a version a side refused (`skipped`).
 * `path` is the remote's (below its root); `local` a body id, which every write of a file changes and a rename keeps.
 */
export interface SyncRecord {
  mount: string;
  path: string;
  /** `forget`, `forgets-seen`: the records of forgetting (../sync/README.md, "Forgetting"), keyed outside a path's. */
  state: 'synced' | 'skipped' | 'forget' | 'forgets-seen';
  /** The local body last synced, or (skipped) the one the remote refused. */
  local?: number;
  sha256?: string;
  /** The remote file as last seen: version, hash, identity. */
  remote?: { path: string; version: string; sha256?: string; id?: string; size?: number };
  /** Skipped: why, in a sentence. */
  reason?: string;
  /** Skipped: which side refused (the remote refused our version, or we refused the remote's). */
  refusedBy?: 'remote' | 'local';
  /** Skipped: the remote's error kind behind it, when there was one (a `RemoteErrorKind`). */
  kind?: string;
  /**
   * forget: a path (the remote's; '' for the whole root) forgotten here, carried out on the remote by the next pass;
   * `carried`: its files there are deleted; `redact`: the remote ids of those whose versions are still to be redacted.
   */
  forget?: { path: string; id: string; at: number; received?: true; carried?: true; redact?: string[] };
  /** forgets-seen: the ids of the remote's forget records this device has applied. */
  applied?: string[];
}

/** `accessedAt` is refreshed when older than this: a `view` stays a read, not a write, almost always. */
export const ACCESS_GRANULARITY_MS = 60 * 60 * 1000;

export type MemoryDb = IDBPDatabase<MemorySchema>;
export type StoreName = StoreNames<MemorySchema>;
