// The status a UI shows: state, last pass, pending changes, conflicts, skipped files, the error and its retry.

import type { RemoteErrorKind } from './remote.js';
import type { HeldDelete, SkippedFile, SyncReport } from './sync-report.js';

/** A conflict copy in the memory: the version a device kept beside the one that took the path. */
export interface SyncConflict {
  /** The file both devices changed (it holds the version that won, the remote's). */
  path: string;
  /** The copy holding the other version. */
  copy: string;
  /** When the copy was made. */
  at: Date | undefined;
}

/** The error that stopped the last pass, and when it is tried again. */
export interface SyncError {
  /** A remote's kind, `storage` (IndexedDB failed), or `unknown`. */
  kind: RemoteErrorKind | 'storage' | 'unknown';
  /** What went wrong, in words for people. */
  message: string;
  /** When it happened. */
  at: Date;
  /** When the engine tries again by itself; null when it waits for `syncNow()` (refused credentials, stopped). */
  retryAt: Date | null;
}

/** Where a sync stands, for a UI: `sync.status()`, and what `sync.subscribe()` hears. */
export interface SyncStatus {
  /** `other-tab`: another tab is syncing this mount and this one waits for its result. */
  state: 'idle' | 'syncing' | 'other-tab' | 'error' | 'stopped';
  /** When the last whole pass ended, here or in another tab. */
  lastSync: Date | null;
  /** What the last whole pass did, or `null` before the first. */
  lastReport: SyncReport | null;
  /** Files changed here since the last pass began, not yet sent. */
  pending: number;
  /** Conflict copies in the memory, waiting for `sync.resolve()`. */
  conflicts: SyncConflict[];
  /** Files a side refused, from the last pass. */
  skipped: SkippedFile[];
  /** Deletes the mass-deletion guard holds back. */
  held: HeldDelete[];
  /** The error of the last pass, or `null` when it succeeded. */
  error: SyncError | null;
}

export function initialStatus(): SyncStatus {
  return { state: 'idle', lastSync: null, lastReport: null, pending: 0, conflicts: [], skipped: [], held: [], error: null };
}
