// The small interface a sync engine needs from a remote store of text files (./README.md, "Remotes"). Each adapter
// (./remotes/) maps one service onto it and words its failures as a SyncRemoteError of a known kind.

/** A file on the remote as a listing shows it. Folders are never listed: they exist only as the paths of files. */
export interface RemoteFile {
  /** Path below the remote's root: `/` then segments, e.g. `/notes/todo.md`. Case-sensitive, Unicode NFC. */
  path: string;
  /** Changes whenever the file's content changes (an ETag, a version id). Opaque; compared only for equality. */
  version: string;
  /** Lowercase hex SHA-256 of the UTF-8 content, when the remote keeps one (Memory Stores does, WebDAV does not). */
  sha256?: string | undefined;
  /** An identity the file keeps when its path changes (a Memory Stores memory id), when the remote has one. */
  id?: string | undefined;
  /** UTF-8 bytes, when known. */
  size?: number | undefined;
  /**
   * Set by a listing for an entry the memory cannot take (a name that maps to no path, a broken entry): the reason,
   * already cut for people. The engine lists it in `skipped` and never reads, writes, moves or deletes it; `path` is
   * then only for showing (cut), and `version` still changes with the entry where the remote can tell.
   */
  refused?: string | undefined;
}

/** What the remote refuses, known before anything is sent (an adapter still maps the server's own refusals). */
export interface RemoteLimits {
  /** Largest file in UTF-8 bytes. */
  maxFileBytes?: number | undefined;
  /** Most files the remote holds. */
  maxFiles?: number | undefined;
  /** Longest path in UTF-8 bytes. */
  maxPathBytes?: number | undefined;
  /** Most path segments. */
  maxSegments?: number | undefined;
}

/** What the engine passes with each remote call. */
export interface RemoteCallOptions {
  /** Aborted when the pass stops (`sync.stop()`, `close()`): the call should end with kind `aborted`. */
  signal?: AbortSignal | undefined;
}

/** A remote store the sync engine can mirror a local folder with. Paths are the remote's own (below its root). */
export interface SyncRemote {
  /** Names this remote for the baseline (`memory-store:memstore_…`, `webdav:https://host/dav/`): a new id starts over. */
  readonly id: string;
  /** `memory-store`, `webdav`, or an app's own word; shown in status and errors. */
  readonly kind: string;
  /** What the remote refuses, known before sending: files past them are skipped, not sent. */
  readonly limits: RemoteLimits;
  /** How many requests the engine may have in flight at once (reads and writes). */
  readonly concurrency: number;
  /** Every file below the root, in any order, each page fetched in turn. */
  list(options?: RemoteCallOptions): Promise<RemoteFile[]>;
  /** The file's text and what the remote now says of it (the text is the one its `version` stands for). */
  read(
    file: RemoteFile,
    options?: RemoteCallOptions,
  ): Promise<{
    /** What the remote now says of the file. */
    file: RemoteFile;
    /** Its text, decoded from UTF-8. */
    text: string;
  }>;
  /**
   * Writes `text` at `path` only if the remote still holds what the caller last saw: `expected` null means the path
   * must be free (else `precondition` or `path-conflict`), a file means its version (or hash) must be unchanged.
   */
  write(path: string, text: string, expected: RemoteFile | null, options?: RemoteCallOptions): Promise<RemoteFile>;
  /** Deletes the file only if it is unchanged since `expected` was seen (else `precondition`); gone already is done. */
  delete(expected: RemoteFile, options?: RemoteCallOptions): Promise<void>;
  /**
   * The texts of many files in few requests, where the remote can send several in one answer (a Memory Stores
   * listing with content): by path, each with what the remote now says of it. Files it leaves out are read one by
   * one. Absent where the remote has no such answer.
   */
  readMany?(
    files: readonly RemoteFile[],
    options?: RemoteCallOptions,
  ): Promise<
    Map<
      string,
      {
        /** What the remote now says of the file. */
        file: RemoteFile;
        /** Its text, decoded from UTF-8. */
        text: string;
      }
    >
  >;
  /** Moves the file to `to` if unchanged since seen and `to` is free; absent where the remote has no move. */
  move?(expected: RemoteFile, to: string, options?: RemoteCallOptions): Promise<RemoteFile>;
  /**
   * The folders the last `list()` walked that held nothing (no file, no folder), where the remote keeps folders of
   * their own (WebDAV). Absent where folders exist only as the paths of files.
   */
  emptyFoldersSeen?(): readonly string[];
  /** Removes the folder at `path` if it still holds nothing; one that holds something is left (`path-conflict`). */
  removeEmptyFolder?(path: string, options?: RemoteCallOptions): Promise<void>;
  /**
   * Erases the text of every version the remote keeps of this file (its history there: Memory Stores' version
   * redaction), called once a forgotten file is deleted, with only `id` to go by. Absent where the remote keeps no
   * versions of its own.
   */
  redact?(file: RemoteFile, options?: RemoteCallOptions): Promise<void>;
}

/** Why a remote call failed; the engine decides by kind (retry, conflict, skip the file, stop). */
export type RemoteErrorKind =
  /** The file changed (or appeared) since it was seen: 409 precondition failed, 412. */
  | 'precondition'
  /**
   * Another client holds a lock on the file (WebDAV's 423): it is being changed right now, or a lock was left behind
   * and lapses by itself. Tried again each pass; listed in `skipped` meanwhile.
   */
  | 'locked'
  /** The path is taken by another file or overlaps one (a file where a folder is, or under a file). */
  | 'path-conflict'
  /** Not there (any more). */
  | 'not-found'
  /** The file is too big for the remote (413, or over `limits.maxFileBytes`). */
  | 'too-large'
  /** The remote holds as many files or bytes as it may (507, a count limit). */
  | 'full'
  /** The remote refuses the path itself (its characters, length or depth). */
  | 'refused-path'
  /** The credentials were refused (401) or lack the right (403). */
  | 'auth'
  /** No answer: offline, DNS, a closed port, CORS. Retried. */
  | 'network'
  /** Too many requests (429). Retried after `retryAfterMs` when given. */
  | 'rate-limited'
  /** The server failed (5xx) or timed out. Retried. */
  | 'server'
  /** The call was stopped (`sync.stop()`, an abort signal). */
  | 'aborted'
  /**
   * The file is there but is not one the memory can hold: not UTF-8 text (an image, `.DS_Store`), no content, or an
   * answer over its cap. The engine lists it in `skipped`, never overwrites or deletes it, and goes on.
   */
  | 'unreadable'
  /** Anything else the remote answered that the adapter does not understand. */
  | 'protocol';

/** What `new SyncRemoteError(kind, message, options)` takes besides its kind and message. */
export interface SyncRemoteErrorOptions {
  /** The HTTP status, when there was one. */
  status?: number | undefined;
  /** How long the remote asked to wait before the next call (`Retry-After`), in ms. */
  retryAfterMs?: number | undefined;
  /** For `path-conflict`: the remote path in the way, when the remote names it. */
  conflictingPath?: string | undefined;
  /** The error behind this one, kept as the error's `cause`. */
  cause?: unknown;
}

/** The one error an adapter throws. `message` is for people; programs branch on `kind`. */
export class SyncRemoteError extends Error {
  /** Always `'SyncRemoteError'`, so {@link isSyncRemoteError} can tell it across realms. */
  override readonly name = 'SyncRemoteError' as const;
  /** What went wrong, for the engine (and programs) to branch on. */
  readonly kind: RemoteErrorKind;
  /** The HTTP status, when there was one. */
  readonly status: number | undefined;
  /** From a `Retry-After`, for `rate-limited` and `server`. */
  readonly retryAfterMs: number | undefined;
  /** For `path-conflict`: the remote path in the way, when the remote names it. */
  readonly conflictingPath: string | undefined;

  constructor(
    kind: RemoteErrorKind,
    message: string,
    options: SyncRemoteErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
    this.conflictingPath = options.conflictingPath;
  }
}

/** True for a {@link SyncRemoteError}, also one from another realm. */
export function isSyncRemoteError(error: unknown): error is SyncRemoteError {
  if (error instanceof SyncRemoteError) return true;
  const candidate = error as { name?: unknown; kind?: unknown } | null;
  return typeof candidate === 'object' && candidate !== null && candidate.name === 'SyncRemoteError' && typeof candidate.kind === 'string';
}

/** The kinds worth trying again later without any change on our side. */
export const RETRYABLE_KINDS: ReadonlySet<RemoteErrorKind> = new Set(['network', 'rate-limited', 'server']);
