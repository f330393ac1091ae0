// What createMemorySync takes and gives: its options, `syncNow`'s options, and the mount's interface.

import type { SyncRemote } from './remote.js';
import type { SyncReport } from './sync-report.js';
import type { SyncStatus } from './sync-status.js';

/** What {@link createMemorySync} takes: the remote, the folder it mirrors, and when passes run. */
export interface MemorySyncOptions {
  /** The store to mirror: `memoryStoreRemote()`, `webdavRemote()`, or an app's own {@link SyncRemote}. */
  remote: SyncRemote;
  /** The local folder that mirrors the remote's root. Default `/memories`. */
  mount?: string | undefined;
  /** Background passes this often (ms), and shortly after local changes; `null`: only `syncNow()`. Default 60,000. */
  interval?: number | null | undefined;
  /** How long after the last local change a pass starts (ms). Default 2,000. */
  debounce?: number | undefined;
  /** Deletes in one direction are held when a pass would make more than `min` and more than `share` of the synced files. */
  deleteGuard?:
    | {
        /** Deletes a pass may make without asking, at most. Default 10. */
        min?: number | undefined;
        /** Share of the synced files a pass may delete without asking, 0 to 1. Default 0.25. */
        share?: number | undefined;
      }
    | undefined;
}

/** What `sync.syncNow()` takes. */
export interface SyncNowOptions {
  /** Carry out the deletes the mass-deletion guard holds. */
  confirmDeletes?: boolean | undefined;
}

/** A remote mounted at a local folder, made by {@link createMemorySync}: its passes, status and conflicts. */
export interface MemorySync {
  /** The local folder that mirrors the remote's root, normalized. */
  readonly mount: string;
  /** The remote it mirrors. */
  readonly remote: SyncRemote;
  /** One whole pass now (after one under way); rejects with a SyncRemoteError when the remote fails. */
  syncNow(options?: SyncNowOptions): Promise<SyncReport>;
  /** The status now: state, last pass, pending changes, conflicts, skipped files, the error and its retry. */
  status(): SyncStatus;
  /** Calls `listener` with every new status; returns unsubscribe. */
  subscribe(listener: (status: SyncStatus) => void): () => void;
  /**
   * Settles a conflict in one undoable change: `current` keeps the version at the path and deletes the copy; `copy`
   * puts the copy's version at the path (and deletes the copy). Both reach the remote with the next pass.
   */
  resolve(copy: string, keep: 'current' | 'copy'): Promise<void>;
  /** Stops background passes and aborts the one under way (its agreed files are kept). `syncNow()` still works. */
  stop(): void;
  /** Starts background passes again after `stop()`; not after `close()` (the folder may be another mount's by then). */
  start(): void;
  /** Forgets the baseline: the next pass compares every file afresh and deletes nothing. */
  resetBaseline(): Promise<void>;
  /** Stops for good and lets go of the mount folder (another `createMemorySync` may take it). */
  close(): void;
}
