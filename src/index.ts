// The public API: every export users may rely on, by name. Nothing else in src/ is public.

export { IndexedDBMemoryTool, DEFAULT_DB_NAME } from './tool.js';
export type { IndexedDBMemoryToolOptions, MemoryToolResult } from './tool.js';
export { memoryTool } from './runnable.js';
export type { MemoryCommandRunner, MemoryToolExtraProps } from './runnable.js';
export { MemoryToolError, isMemoryToolError } from './errors.js';
export type { MemoryToolErrorCode } from './errors.js';
export { normalizeMemoryPath, isHiddenName, MEMORY_ROOT, PATH_LIMITS } from './paths.js';
export { formatSize } from './replies.js';
export { parseMemoryCommand } from './input.js';
export type { MemoryCommand, MemoryCommandName } from './input.js';
export { DEFAULT_LIMITS } from './limits.js';
export type { MemoryLimits, ResolvedLimits } from './limits.js';
export { DB_VERSION } from './schema.js';
export type { MemoryChange } from './commands.js';
export type { MemoryChangeEvent, MemoryChangeListener } from './events.js';
export { importChanges, BUNDLE_FORMAT, BUNDLE_VERSION } from './bundle-format.js';
export type { ExportBundleOptions, ImportBundleOptions, ImportReport, BundleProgress, BundleFile, MemoryBundle } from './bundle-format.js';
export type { BeforeWrite, RunOptions, ExpireReport } from './tool.js';
export type { HistoryEntry, HistoryOptions, ChangeDetail, ChangedFile } from './history.js';
export type { HistoryLimits } from './journal.js';
export type { MemoryEntry } from './listing.js';
export { DEFAULT_HISTORY_LIMITS } from './journal.js';
export { SECRET_PATTERNS, findSecret } from './secrets.js';
export type { SecretPattern } from './secrets.js';
export { createMemoryAgent, DEFAULT_AGENT_MODEL, CONTEXT_MANAGEMENT_BETA } from './agent.js';
export type {
  MemoryAgent,
  MemoryAgentOptions,
  MemoryAgentEvent,
  MemoryAgentListener,
  MemoryAgentTurn,
  SendOptions,
  TurnOutcome,
  AgentUsageTotals,
  ContextManagementOption,
} from './agent.js';
export type { AgentConnection } from './agent-client.js';
export { MemoryAgentError, isMemoryAgentError, describeAgentError } from './agent-errors.js';
export type { AgentErrorKind, AgentErrorDescription, AgentErrorContext } from './agent-errors.js';
export { createScriptedClaude, SCRIPT_FINISHED_TEXT } from './scripted-claude.js';
export type { ScriptedClaude, ScriptedClaudeOptions, ScriptedStep, ScriptedTurn, ScriptedRequest, ReceivedToolResult } from './scripted-claude.js';
