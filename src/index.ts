// The package's main entry, `idb-memory-tool`: the tool and everything about it, with no import of
// `@anthropic-ai/sdk`, at run time or in its types. The other entries are in ./entries/ (their README lists them).
// Every export users may rely on, by name; nothing else in src/ is public.
/** @module idb-memory-tool */

export { IndexedDBMemoryTool } from './tool/tool.js';
export { DEFAULT_DB_NAME } from './tool/options.js';
export type { IndexedDBMemoryToolOptions, MemoryToolResult, MemoryToolSuccess, MemoryToolFailure } from './tool/options.js';
export { MemoryToolError, isMemoryToolError } from './core/errors.js';
export type { MemoryToolErrorCode } from './core/errors.js';
export { normalizeMemoryPath, isHiddenName, MEMORY_ROOT, PATH_LIMITS } from './core/paths.js';
export { formatSize } from './core/replies.js';
export { parseMemoryCommand } from './core/command-input.js';
export type {
  MemoryCommand,
  MemoryCommandName,
  ViewCommand,
  CreateCommand,
  StrReplaceCommand,
  InsertCommand,
  DeleteCommand,
  RenameCommand,
} from './core/command-input.js';
export { DEFAULT_LIMITS } from './core/limits.js';
export type { MemoryLimits, ResolvedLimits } from './core/limits.js';
export { DB_VERSION } from './storage/schema.js';
export type { MemoryChange, MemoryChangeEvent, MemoryChangeListener } from './core/change-events.js';
export { importChanges, BUNDLE_FORMAT, BUNDLE_VERSION } from './bundle/format.js';
export type {
  ExportBundleOptions,
  ImportBundleOptions,
  ImportReport,
  BundleProgress,
  BundleFile,
  MemoryBundle,
} from './bundle/format.js';
export type { RunOptions, ExpireOptions, ExpireReport, ForgetReport, ClearHistoryReport, CompactReport } from './tool/options.js';
export type { ActorOptions, WriteOptions, WipeOptions, WipeReport, ListOptions } from './tool/options.js';
export type { BundleInput } from './tool/import-action.js';
export type { BeforeWrite, BeforeWriteHook } from './guards/write-guards.js';
export type { ApproveAnswer, ApproveHook, WriteProposal } from './tool/approval.js';
export { approvePolicy } from './tool/approve-policy.js';
export type { ApprovePolicy, ApprovePolicyOptions, PolicyAnswer } from './tool/approve-policy.js';
export type { BlameGap, BlameLine } from './history/blame.js';
export type { HistoryEntry, HistoryOptions, ChangeDetail, ChangedFile } from './history/read-history.js';
export type { HistoryCommand, HistoryLimits, ResolvedHistoryLimits } from './history/journal.js';
export type { MemoryEntry, MemoryList } from './storage/tree-reads.js';
export { SEARCH_LIMITS } from './search/types.js';
export type { SearchOptions, SearchResult, SearchHit, SearchLine } from './search/types.js';
export { DEFAULT_HISTORY_LIMITS } from './history/journal.js';
export { SECRET_PATTERNS, findSecret } from './guards/secrets.js';
export type { SecretPattern } from './guards/secrets.js';
export { memoryToolResult } from './adapters/tool-result.js';
export type { MemoryToolUse, MemoryToolResultBlock } from './adapters/tool-result.js';
export type { MemoryCommandRunner, MemoryRunContext } from './adapters/command-runner.js';
// The memory as a view for any UI framework (the React hooks are `idb-memory-tool/react`): no React here.
export { createMemoryTreeStore } from './react/memory-tree-store.js';
export type { MemoryTreeOptions, MemoryTreeSnapshot, MemoryTreeSource, MemoryTreeStore } from './react/memory-tree-store.js';
export { createMemoryFileStore } from './react/memory-file-store.js';
export type { MemoryFileSnapshot, MemoryFileSource, MemoryFileStore } from './react/memory-file-store.js';
export { createMemorySearchStore } from './react/memory-search-store.js';
export type { MemorySearchOptions, MemorySearchSnapshot, MemorySearchSource, MemorySearchStore } from './react/memory-search-store.js';
export type { MemoryChangeSource, MemorySnapshotStore } from './react/live-read.js';
