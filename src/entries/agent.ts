// `idb-memory-tool/agent`: Claude and the memory in one loop, driven from the page through `@anthropic-ai/sdk`
// (imported at run time: install it).
/** @module idb-memory-tool/agent */

export { createMemoryAgent } from '../agent/agent.js';
export type { MemoryAgent, SendOptions } from '../agent/agent.js';
export { DEFAULT_AGENT_MODEL } from '../agent/options.js';
export type { MemoryAgentOptions } from '../agent/options.js';
export { CONTEXT_MANAGEMENT_BETA, COMPACTION_BETA, COMPACT_NOW_BETA } from '../agent/context-edits.js';
export type { ContextManagementOption, ClearThinkingOption, CompactionOption } from '../agent/context-edits.js';
export type { CompactOptions } from '../agent/compaction.js';
export { MULTI_SESSION_PROMPT } from '../agent/multi-session.js';
export { SEARCH_PROMPT_LINE } from '../agent/search-option.js';
export type { MemoryAgentEvent, MemoryAgentListener, TurnOutcome, Compaction } from '../agent/events.js';
export type { MemoryAgentTurn } from '../agent/turn.js';
export type { AgentUsageTotals } from '../agent/usage.js';
export { createAgentClient } from '../agent/client.js';
export type { AgentConnection } from '../agent/client.js';
export { MemoryAgentError, isMemoryAgentError, describeAgentError } from '../agent/errors.js';
export type { AgentErrorKind, AgentErrorDescription, AgentErrorContext } from '../agent/errors.js';
