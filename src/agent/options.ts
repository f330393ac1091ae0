// The options of createMemoryAgent(), checked, and the request settings they make (all but the messages).

import type { BetaClearToolUses20250919Edit, BetaMessageParam } from '../core/sdk-types.js';
import type { MemoryCommandRunner } from '../adapters/sdk-runnable.js';
import { memoryTool } from '../adapters/sdk-runnable.js';
import type { AgentConnection } from './client.js';
import type { MemoryAgentListener } from './events.js';

/** The newest Sonnet in the SDK's own `Model` list (1.16 and 1.17). `model` is free text: any id the key can use. */
export const DEFAULT_AGENT_MODEL = 'claude-sonnet-5-5';
/** The beta that context editing needs; sent only with `contextManagement` (the memory tool needs none). */
export const CONTEXT_MANAGEMENT_BETA = 'context-management-2025-06-27';

/** Context editing's `clear_tool_uses_20250919` edit, without its `type`; `true` takes the API's defaults. */
export type ContextManagementOption = boolean | Omit<BetaClearToolUses20250919Edit, 'type'>;

export interface MemoryAgentOptions extends AgentConnection {
  /** Where Claude's `/memories` live, e.g. an `IndexedDBMemoryTool`. */
  tool: MemoryCommandRunner;
  /** Default {@link DEFAULT_AGENT_MODEL}. */
  model?: string;
  system?: string;
  /** `max_tokens` of each request. Default 4096. */
  maxTokens?: number;
  /** Requests per `send()` at most (each tool round trip is one). Default 20. */
  maxIterations?: number;
  /** Sends `context_management` so the API clears old tool uses from long conversations. */
  contextManagement?: ContextManagementOption;
  /** A conversation to continue. */
  messages?: BetaMessageParam[];
  /** Called with every {@link MemoryAgentEvent}; the same as `agent.subscribe(onEvent)`. */
  onEvent?: MemoryAgentListener;
}

export type RequestSettings = ReturnType<typeof requestSettings>;

/** What every request of the agent sends besides its messages; throws a TypeError for a bad count. */
export function requestSettings(options: MemoryAgentOptions) {
  const tool = memoryTool(options.tool);
  checkCount('maxTokens', options.maxTokens);
  // The SDK's runner takes 0 as "no cap": a count of requests must be one at least.
  checkCount('maxIterations', options.maxIterations);
  const contextManagement = contextManagementParam(options.contextManagement);
  return {
    model: options.model ?? DEFAULT_AGENT_MODEL,
    max_tokens: options.maxTokens ?? 4096,
    max_iterations: options.maxIterations ?? 20,
    tools: [tool],
    ...(options.system !== undefined ? { system: options.system } : {}),
    ...(contextManagement ? { betas: [CONTEXT_MANAGEMENT_BETA], context_management: contextManagement } : {}),
  };
}

function checkCount(name: string, value: number | undefined): void {
  if (value !== undefined && (!Number.isSafeInteger(value) || value < 1)) {
    throw new TypeError(`\`${name}\` must be a positive integer, got ${String(value)}`);
  }
}

function contextManagementParam(
  option: ContextManagementOption | undefined,
): { edits: BetaClearToolUses20250919Edit[] } | undefined {
  if (!option) return undefined;
  const edit: BetaClearToolUses20250919Edit = { ...(option === true ? {} : option), type: 'clear_tool_uses_20250919' };
  return { edits: [edit] };
}
