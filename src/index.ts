// The public API: every export users may rely on, by name. Nothing else in src/ is public.

export { IndexedDBMemoryTool } from './tool/tool.js';
export { DEFAULT_DB_NAME } from './tool/options.js';
export type { IndexedDBMemoryToolOptions, MemoryToolResult } from './tool/options.js';
export { memoryTool } from './adapters/sdk-runnable.js';
export type { MemoryCommandRunner, MemoryToolExtraProps } from './adapters/sdk-runnable.js';
export { MemoryToolError, isMemoryToolError } from './core/errors.js';
export type { MemoryToolErrorCode } from './core/errors.js';
export { normalizeMemoryPath, isHiddenName, MEMORY_ROOT, PATH_LIMITS } from './core/paths.js';
export { formatSize } from './core/replies.js';
export { parseMemoryCommand } from './core/command-input.js';
export type { MemoryCommand, MemoryCommandName } from './core/command-input.js';
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
export type { RunOptions, ExpireReport } from './tool/options.js';
export type { BeforeWrite } from './guards/write-guards.js';
export type { HistoryEntry, HistoryOptions, ChangeDetail, ChangedFile } from './history/read-history.js';
export type { HistoryLimits } from './history/journal.js';
export type { MemoryEntry } from './storage/tree-reads.js';
export { DEFAULT_HISTORY_LIMITS } from './history/journal.js';
export { SECRET_PATTERNS, findSecret } from './guards/secrets.js';
export type { SecretPattern } from './guards/secrets.js';
export { createMemoryAgent } from './agent/agent.js';
export type { MemoryAgent, SendOptions } from './agent/agent.js';
export { DEFAULT_AGENT_MODEL, CONTEXT_MANAGEMENT_BETA } from './agent/options.js';
export type { MemoryAgentOptions, ContextManagementOption } from './agent/options.js';
export type { MemoryAgentEvent, MemoryAgentListener, TurnOutcome } from './agent/events.js';
export type { MemoryAgentTurn } from './agent/turn.js';
export type { AgentUsageTotals } from './agent/usage.js';
export type { AgentConnection } from './agent/client.js';
export { MemoryAgentError, isMemoryAgentError, describeAgentError } from './agent/errors.js';
export type { AgentErrorKind, AgentErrorDescription, AgentErrorContext } from './agent/errors.js';
export { createScriptedClaude, SCRIPT_FINISHED_TEXT } from './offline/scripted-claude.js';
export type {
  ScriptedClaude,
  ScriptedClaudeOptions,
  ScriptedStep,
  ScriptedRequest,
  ReceivedToolResult,
} from './offline/scripted-claude.js';
export type { ScriptedTurn } from './offline/wire-message.js';
