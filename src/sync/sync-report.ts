// What one pass did, in memory paths (`/memories/…`), and the per-pass counters the engine folds into its status.

import type { RemoteErrorKind } from './remote.js';

/** A file a side would not take, with the reason in a sentence. */
export interface SkippedFile {
  /** The file's memory path. */
  path: string;
  /** Why it was refused, in a sentence for people. */
  reason: string;
  /** `remote`: the remote refused this memory's version; `local`: this memory refused the remote's. */
  refusedBy: 'remote' | 'local';
  /**
   * The remote's error kind, when an error of the remote's refused it. `locked` and `path-conflict` are tried again
   * each pass (what refused them can go without this file changing); the rest wait for a new version of the file.
   */
  kind?: RemoteErrorKind;
}

/** A delete the mass-deletion guard holds: `side` is where it would be made (`local`: here, `remote`: there). */
export interface HeldDelete {
  /** The file's memory path. */
  path: string;
  /** Where the delete would be made. */
  side: 'local' | 'remote';
}

/** One whole pass: every path it touched, by what it did. */
export interface SyncReport {
  /** Written here from the remote (new or changed), renames included. */
  pulled: string[];
  /** Written to the remote from here, renames included. */
  pushed: string[];
  /** Deleted on either side, as the other side had deleted them. */
  deleted: string[];
  /** Changed differently on both sides: the remote's version is at the path, this memory's beside it (a copy). */
  conflicts: string[];
  /** Refused by one side; tried again once that version changes. */
  skipped: SkippedFile[];
  /** Deletes held back by the mass-deletion guard, until `syncNow({ confirmDeletes: true })`, and where they would be made. */
  held: HeldDelete[];
}

export function emptyReport(): SyncReport {
  return { pulled: [], pushed: [], deleted: [], conflicts: [], skipped: [], held: [] };
}
