// The bundle format's names, shapes and options, and an import's change events: what loads with the tool.

import type { MemoryChange } from '../core/change-events.js';

/** The `format` field of every bundle this library writes, and the one it reads. */
export const BUNDLE_FORMAT = 'claude-memory-bundle';
/** The format version this library writes and the newest it reads. */
export const BUNDLE_VERSION = 1;

/**
 * One file of a bundle, as an export writes it. An import needs only `path` and `content`, and checks the others when
 * present (absent or `null`: not given). Times are ISO 8601 date-times with a zone, of a year from 1 to 9999 in UTC;
 * a missing `createdAt` is taken from `updatedAt`, a missing `updatedAt` is the import's time. `sha256` is the
 * lowercase hex digest of the UTF-8 content.
 */
export interface BundleFile {
  /** The file's memory path, `/memories/…`. */
  path: string;
  /** Its whole text. */
  content: string;
  /** When it was made (ISO 8601). */
  createdAt: string;
  /** When its text last changed (ISO 8601). */
  updatedAt: string;
  /** The lowercase hex SHA-256 of the UTF-8 content, checked on import. */
  sha256: string;
}

/**
 * The JSON a bundle holds, as an export writes it. An import needs only `format`, `version` and `files`; a missing
 * `folders` is empty and a missing `exportedAt` unknown. `files` are sorted by path (UTF-16 order); `folders` lists
 * only empty folders (the others are made from the file paths).
 */
export interface MemoryBundle {
  /** Always {@link BUNDLE_FORMAT}. */
  format: typeof BUNDLE_FORMAT;
  /** {@link BUNDLE_VERSION}; a newer version is refused. */
  version: typeof BUNDLE_VERSION;
  /** When it was exported (ISO 8601). */
  exportedAt: string;
  /** Every file, sorted by path. */
  files: BundleFile[];
  /** The empty folders' paths only. */
  folders: string[];
}

/** `(done, total)`: `done` only grows, is reported at least every 1,000 files, and ends equal to `total`. */
export type BundleProgress = (done: number, total: number) => void;

/** What `exportBundle` takes: the subtree, the format, encryption, progress and a signal. */
export interface ExportBundleOptions {
  /** The subtree to export (a folder or one file). Default `/memories`, the whole memory. */
  path?: string | undefined;
  /**
   * `json` (default): a `claude-memory-bundle` JSON file. `zip`: the plain tree as a `.zip` (`memories/...` inside,
   * each folder an entry of its own, each modification time kept to the second), which any unzip opens.
   */
  format?: 'json' | 'zip' | undefined;
  /** Called while the files are hashed (JSON) or compressed (zip); `total` is the number of files. */
  onProgress?: BundleProgress | undefined;
  /** The `exportedAt` stamp (JSON only), for reproducible output; a year from 1 to 9999. Default: now. */
  exportedAt?: Date | undefined;
  /** Stops the export: it rejects with an `AbortError` (the signal's reason). */
  signal?: AbortSignal | undefined;
  /**
   * Encrypts the bundle (JSON or zip) into an age file (age-encryption.org/v1) that `age -d` opens with this
   * passphrase: scrypt (work factor 2^18, as age writes) wraps a random file key. Not with `recipients`.
   */
  passphrase?: string | undefined;
  /**
   * Encrypts the bundle into an age file for these age recipients (`age1…`, as `age-keygen` prints them): any one
   * of their identities opens it (`age -d -i key.txt`). Not with `passphrase`.
   */
  recipients?: readonly string[] | undefined;
}

/** What `importBundle` takes: how to merge, a dry run, the key of an encrypted bundle, progress and a signal. */
export interface ImportBundleOptions {
  /** `merge` (default) keeps what the memory holds; `replace` leaves exactly the bundle's files and folders. */
  mode?: 'merge' | 'replace' | undefined;
  /** A bundle file on a memory file: `overwrite` it (default), `skip` it (keep the memory's), or `fail` the import. */
  onConflict?: 'overwrite' | 'skip' | 'fail' | undefined;
  /** Check everything and report what would happen, but write nothing. */
  dryRun?: boolean | undefined;
  /**
   * Each file hashed, then (unless `dryRun`) each written or skipped. A throw refuses the import, except from the
   * last call (`done === total`, after the commit).
   */
  onProgress?: BundleProgress | undefined;
  /** Stops the import before it commits: nothing is written, and it rejects with an `AbortError`. */
  signal?: AbortSignal | undefined;
  /** The history entry's actor (default `user`). */
  actor?: string | undefined;
  /** The history entry's source (a file name, a URL), at most 256 characters kept. */
  source?: string | undefined;
  /**
   * Opens an encrypted bundle (an age file, binary or armored) made with this passphrase. An age file with no key is
   * refused (`key_needed`), a wrong key too (`wrong_key`), and a key given for a bundle in the clear as well
   * (`invalid_bundle`): whoever gives one counts on the file being encrypted.
   */
  passphrase?: string | undefined;
  /**
   * Opens an age file encrypted to a recipient: the text of an identity file as `age-keygen` writes it (comments
   * allowed, one or more `AGE-SECRET-KEY-1…` lines), or the bare key line. May be given with `passphrase`.
   */
  identity?: string | undefined;
}

/** What an import did (or, with `dryRun`, would do). Paths are normalized memory paths. */
export interface ImportReport {
  /** Bundle files that were not in the memory. */
  added: number;
  /** Bundle files that overwrote a file of the memory holding another text. */
  replaced: number;
  /**
   * Bundle files whose text the memory's file holds already: not written (the file keeps its times), not a conflict
   * (`onConflict` does not apply), and kept by `mode: 'replace'`.
   */
  unchanged: number;
  /** Bundle files not written because the memory's copy was kept (`onConflict: 'skip'`). */
  skipped: number;
  /** Files of the memory that are not in the bundle and were deleted (`mode: 'replace'` only). */
  removed: number;
  /** Folders created. */
  folders: number;
  /** Whether it was a dry run: nothing was written. */
  dryRun: boolean;
  /** The paths counted in `added`. */
  addedPaths: string[];
  /** The paths counted in `replaced`. */
  replacedPaths: string[];
  /** The paths counted in `unchanged`. */
  unchangedPaths: string[];
  /** The paths counted in `skipped`. */
  skippedPaths: string[];
  /** The paths counted in `removed`. */
  removedPaths: string[];
  /** Folders created. */
  folderPaths: string[];
  /** Folders of the memory that the bundle does not need and were deleted (`mode: 'replace'` only). */
  removedFolderPaths: string[];
}

/** The change events an import makes: each removal a `delete`, each file written and folder made a `write`. */
export function importChanges(report: ImportReport): MemoryChange[] {
  return [
    ...[...report.removedPaths, ...report.removedFolderPaths].map((path): MemoryChange => ({ type: 'delete', path })),
    ...[...report.folderPaths, ...report.addedPaths, ...report.replacedPaths].map(
      (path): MemoryChange => ({ type: 'write', path }),
    ),
  ];
}
