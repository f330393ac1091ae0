// `idb-memory-tool/agent`: Claude and the memory in one loop, driven from the page through `@anthropic-ai/sdk`
// (imported at run time: install it).

export { createMemoryAgent } from '../agent/agent.js';
export type { MemoryAgent, SendOptions } from '../agent/agent.js';
export { DEFAULT_AGENT_MODEL, CONTEXT_MANAGEMENT_BETA } from '../agent/options.js';
export type { MemoryAgentOptions, ContextManagementOption } from '../agent/options.js';
export type { MemoryAgentEvent, MemoryAgentListener, TurnOutcome } from '../agent/events.js';
export type { MemoryAgentTurn } from '../agent/turn.js';
export type { AgentUsageTotals } from '../agent/usage.js';
export { createAgentClient } from '../agent/client.js';
export type { AgentConnection } from '../agent/client.js';
export { MemoryAgentError, isMemoryAgentError, describeAgentError } from '../agent/errors.js';
export type { AgentErrorKind, AgentErrorDescription, AgentErrorContext } from '../agent/errors.js';
