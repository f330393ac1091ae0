// The tool's public option and result types.

import type { MemoryToolErrorCode } from '../core/errors.js';
import type { MemoryLimits } from '../core/limits.js';
import type { BeforeWriteHook } from '../guards/write-guards.js';
import type { ApproveHook } from './approval.js';
import type { HistoryLimits } from '../history/journal.js';

/** What `IndexedDBMemoryTool.init` takes; every field is optional. */
export interface IndexedDBMemoryToolOptions {
  /** IndexedDB database name. Default `"claude-memory"`; use one per user or per app to keep memories apart. */
  dbName?: string | undefined;
  /** `create` on an existing file overwrites it (default `true`) or refuses with `File … already exists`. */
  overwrite?: boolean | undefined;
  /** Caps checked before anything is written, and the longest reply; see {@link MemoryLimits}. */
  limits?: MemoryLimits | undefined;
  /** The journal behind `history()` and `undo()`: bounds (default 1,000 changes, 32 MiB), or `false` to keep none. */
  history?: HistoryLimits | false | undefined;
  /** Refuse text that looks like an API key, private key or cloud credential (default `true`). */
  blockSecrets?: boolean | undefined;
  /**
   * Sees every text before it is stored: return a string to store instead, nothing to keep it, or throw to refuse
   * (Claude reads the message). Synchronous: it runs inside the transaction, and may run twice for one command.
   * Returning anything else refuses the write with code `invalid_hook`.
   */
  beforeWrite?: BeforeWriteHook | undefined;
  /**
   * Asked before each write by `claude` is stored, once it is checked and its effect known (after `beforeWrite`);
   * anything but `'allow'` stores nothing and tells Claude the person declined. See ./README.md, "Approval".
   */
  approve?: ApproveHook | undefined;
}

/** Who a command is run for, recorded in the history. */
export interface RunOptions {
  /** Default `claude`; the demo's console uses `user`. */
  actor?: string | undefined;
  /** Where the write comes from (e.g. a conversation id), kept in its history entry; cut at 256 characters. */
  source?: string | undefined;
  /** Withdraws the write's open question (`approve`): nothing is stored, and Claude is told. */
  signal?: AbortSignal | undefined;
}

/** What `tool.expire()` did. */
export interface ExpireReport {
  /** Normalized paths of the deleted files. */
  deleted: string[];
}

/** What `tool.forget()` erased. It cannot be undone. */
export interface ForgetReport {
  /** The normalized path forgotten. */
  path: string;
  /** Files and folders taken out of the memory: the path, and all below it for a folder (none if it was gone). */
  deleted: string[];
  /** History entries deleted, as all they held was forgotten: `change(id)` and `undo(id)` no longer find them. */
  removedChanges: number[];
  /** History entries that keep their other steps without the forgotten ones; they can no longer be undone. */
  trimmedChanges: number[];
  /**
   * Files outside the path that hold a version of what was forgotten (it was renamed or edited into them): left as
   * they are; forget them too if that text must go.
   */
  keptIn: string[];
}

/** What `tool.compactStorage()` moved to the fresh database. */
export interface CompactReport {
  /** Files in the memory. */
  files: number;
  /** Texts kept: the files' and the old versions the history holds. */
  bodies: number;
  /** History entries. */
  changes: number;
}

/** What `tool.clearHistory()` erased. It cannot be undone. */
export interface ClearHistoryReport {
  /** How many history entries were deleted. */
  removedChanges: number;
}

/**
 * What `tool.run()` answers: the `tool_result` content and whether it is an error. A union on `is_error`, so testing
 * it narrows: only a refusal carries a `code`.
 */
export type MemoryToolResult = MemoryToolSuccess | MemoryToolFailure;

/** A command that ran: `content` is the reply Claude reads. */
export interface MemoryToolSuccess {
  /** The reply Claude reads. */
  content: string;
  /** `false`: the command ran. */
  is_error: false;
  /** Never set: declared so `result.code` reads without narrowing first. */
  code?: undefined;
}

/** A command refused: `content` is the refusal as the SDK runner words it (`Error: …`). */
export interface MemoryToolFailure {
  /** The refusal Claude reads, starting `Error: `. */
  content: string;
  /** `true`: the command was refused and nothing was changed. */
  is_error: true;
  /** The MemoryToolError code, for programs (e.g. `storage` to show a full disk). */
  code: MemoryToolErrorCode;
}

/** The IndexedDB database used when `dbName` is not given: `"claude-memory"`. */
export const DEFAULT_DB_NAME = 'claude-memory';

/** Who an app-side write is made for, recorded in its history entry. */
export interface ActorOptions {
  /** The history's `actor` (default `user`; `expire` for an expiry). */
  actor?: string | undefined;
  /** Where the write comes from, kept in its history entry; cut at 256 characters. */
  source?: string | undefined;
}

/** `tool.write()`'s options: who writes, and a signal that stops it before it starts. */
export interface WriteOptions extends ActorOptions {
  /** Aborted before the write starts: nothing is stored, and it rejects with an `AbortError`. */
  signal?: AbortSignal | undefined;
}

/** `tool.expire()`'s options. */
export interface ExpireOptions extends ActorOptions {
  /** Delete the files not read or written since this Date, or for this many ms. */
  olderThan: Date | number;
  /** Aborted before the expiry commits: nothing is deleted, and it rejects with an `AbortError`. */
  signal?: AbortSignal | undefined;
}

/** `tool.wipe()`'s options. */
export interface WipeOptions {
  /** Under a sync mount, also delete the files on the remote at the next pass (default `false`: it pulls them back). */
  remote?: boolean | undefined;
  /** Aborted before the wipe commits: nothing is erased, and it rejects with an `AbortError`. */
  signal?: AbortSignal | undefined;
}

/** What `tool.wipe()` erased. It cannot be undone. */
export interface WipeReport {
  /** Files the memory held. */
  files: number;
  /** History entries erased. */
  changes: number;
}

/** `tool.list()`'s options. */
export interface ListOptions {
  /** Levels below the folder: 1 lists its own children only. Default: all. */
  depth?: number | undefined;
  /** At most this many entries, in path order; the result's `truncated` says whether some were left out. */
  limit?: number | undefined;
}
