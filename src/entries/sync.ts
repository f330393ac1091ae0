// `idb-memory-tool/sync`: the memory kept in step with a remote store — Anthropic's Memory Stores (through the SDK
// client the app already has) or any WebDAV server — by a three-way merge that loses nothing.
/** @module idb-memory-tool/sync */

export { createMemorySync } from '../sync/memory-sync.js';
export type { MemorySync, MemorySyncOptions, SyncNowOptions } from '../sync/memory-sync.js';
export type { SyncReport, SkippedFile, HeldDelete } from '../sync/sync-report.js';
export type { SyncStatus, SyncConflict, SyncError } from '../sync/sync-status.js';
export { SyncRemoteError, isSyncRemoteError } from '../sync/remote.js';
export type {
  SyncRemote,
  RemoteFile,
  RemoteLimits,
  RemoteCallOptions,
  RemoteErrorKind,
  SyncRemoteErrorOptions,
} from '../sync/remote.js';
export { memoryStoreRemote } from '../sync/remotes/memory-store.js';
export type { MemoryStoreRemoteOptions } from '../sync/remotes/memory-store.js';
export { webdavRemote } from '../sync/remotes/webdav.js';
export type { WebdavRemoteOptions, WebdavEncryption } from '../sync/remotes/webdav.js';
export { changeWebdavPassphrase } from '../sync/remotes/webdav-passphrase.js';
