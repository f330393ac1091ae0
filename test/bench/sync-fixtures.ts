// The Sync rows' data and shapes, shared by the page (sync-page.ts), Node (sync-bench.ts) and the report
// (report-sync.ts): the memory of 2,000 files both sides seed, the steps Node asks of the page, a pass as counted.
// Pure: no DOM, no Node APIs.

import { BULK_FILE_BYTES, bulkPath, makeText } from './fixtures.js';

/** Files of the synced memory (the Memory Stores limit per store), 1 KB each, in folders of 100. */
export const SYNC_FILES = 2000;
/** Files of the big first pull (issue 39): streamed, so the page's heap stays bounded. */
export const SYNC_BIG_FILES = 10_000;
/** The delay before each answer of the WebDAV big pull (a proxy in front of Apache adds it). */
export const SYNC_WEBDAV_LATENCY_MS = 10;
/** Files changed locally before each pass of the `ten changed` row. */
export const SYNC_CHANGED = 10;
/** The remote's answer delay for the first pull's goal, and the second run of the other rows. */
export const SYNC_LATENCY_MS = 20;

/** The remote path of file `i`: `/d000/f000.md` (the memory's path is `/memories` + it). */
export const syncPath = (i: number): string => bulkPath('', i);
export const syncText = (i: number): string => makeText(BULK_FILE_BYTES, i + 1);

/**
 * The files run `run` of the `ten changed` row edits: one in each of ten folders, and other files in every run, so no
 * run writes a file the one before wrote (Apache's ETag stays weak for a second after a write, and a conditional
 * write on it waits that second out: a cost of the test's pace, not of the sync).
 */
export function changedFiles(run: number): string[] {
  const stride = SYNC_FILES / SYNC_CHANGED;
  if (run >= stride) throw new RangeError(`changedFiles: at most ${stride} runs`);
  return Array.from({ length: SYNC_CHANGED }, (_, k) => syncPath(k * stride + run));
}

export type RemoteSpec =
  | { kind: 'memory-store'; baseURL: string; storeId: string }
  | { kind: 'webdav'; url: string; username: string; password: string };

/** What Node asks of the page, one step per call, so that it can read its server's log around each pass. */
export type SyncStep =
  /** A new memory (database `dbName`, emptied first) mounted at `/memories` on `remote`, background passes off. */
  | { action: 'open'; dbName: string; remote: RemoteSpec }
  /** Inserts a line at the top of each of these files (remote paths), untimed. */
  | { action: 'change'; paths: string[] }
  /** One timed `syncNow()`; `storage`: the origin's usage (navigator.storage.estimate) before and after it too. */
  | { action: 'pass'; storage?: boolean }
  /** The first pull's floor: plain `fetch` of these URLs, `concurrency` at once, with these headers; timed. */
  | { action: 'fetch'; urls: string[]; headers: Record<string, string>; concurrency: number }
  /** Closes the memory and deletes its database. */
  | { action: 'close' };

/** A request the page's counting fetch saw (the WebDAV remote's; a preflight never reaches it). */
export interface FetchSeen {
  method: string;
  /** The URL's path, decoded. */
  path: string;
  /** The `Depth` header, for PROPFIND. */
  depth?: string;
}

/** What a step answers: `open` the remote's concurrency, `pass` the pass, `fetch` its time; the others nothing. */
export interface SyncAnswer {
  concurrency?: number;
  pass?: PassResult;
  fetchMs?: number;
}

/** One pass as the page saw it: its time, what `syncNow()` reported, and the WebDAV requests. */
export interface PassResult {
  ms: number;
  pulled: number;
  pushed: string[];
  deleted: number;
  conflicts: number;
  skipped: number;
  held: number;
  fetches: FetchSeen[];
  /** The origin's storage usage before and after the pass, in bytes, where asked and the engine tells. */
  storage?: { before: number; after: number };
}

export type SyncGoalName = 'unchanged' | 'first pull' | 'ten changed';

/** One timed pass, its requests counted and sorted. */
export interface SyncPass {
  ms: number;
  /** Requests by kind, e.g. `GET list`, `GET memory`, `POST update`, `OPTIONS`, `PROPFIND Depth 1`, `PUT`. */
  requests: Record<string, number>;
  /** The listing's requests: pages (Memory Stores), or PROPFIND Depth 1 of a folder (WebDAV). */
  listing: number;
  /** Requests about one file: reads, writes, a PROPFIND Depth 0 (preflights aside). */
  perFile: number;
  /** Writes: creates, updates, deletes, moves; PUT, DELETE, MOVE, MKCOL. */
  writes: number;
  /**
   * Per-file requests about a file the pass had no cause to touch (for `ten changed`, one not among the ten), the
   * re-reads counted in `rechecked` aside.
   */
  stray: number;
  /**
   * Reads of a file an earlier pass wrote: WebDAV on Apache, whose tag stays weak for a second after a write, so a
   * pass 1.2 s or more later reads such a file once more to be sure the text there is still ours
   * (src/sync/remotes/webdav-weak-writes.ts).
   */
  rechecked?: number;
  /** Of the files that had to be written, how many were not. */
  unwritten: number;
  /** What `syncNow()` reported (counts). */
  pulled: number;
  pushed: number;
  deleted: number;
  conflicts: number;
  skipped: number;
  held: number;
  /**
   * The big pull's memory: the page's live JS heap (after a forced GC, sampled over CDP through the pull) at its
   * highest above where it was before, and what the origin's storage grew by. Chromium only; absent elsewhere.
   */
  heap?: { growth: number; samples: number };
  /** The origin's storage usage the pass added (navigator.storage.estimate), where the engine tells. */
  stored?: number;
}

/** One row: the same pass timed several times. */
export interface SyncRow {
  goal: SyncGoalName;
  remote: 'memory-store' | 'webdav';
  files: number;
  /** Files changed before each pass (`ten changed`). */
  changed?: number;
  /** The remote's delay before each answer (0: loopback as it is). */
  latencyMs: number;
  /** Requests the remote lets the engine have in flight. */
  concurrency: number;
  /** The listing's requests a pass needs: ⌈files ÷ 100⌉ pages, or one PROPFIND per folder and the root. */
  listing: number;
  /** Where the requests were counted: the server's log (preflights in it) or the page's counting fetch (none). */
  counted: 'server log' | 'counting fetch';
  passes: SyncPass[];
  /**
   * The first pull's floor, timed in turn with it: the same files fetched by plain `fetch` at the same concurrency
   * with headers that need the same preflights, no SDK and no memory.
   */
  floor?: { ms: number[]; requests: Record<string, number> };
}
