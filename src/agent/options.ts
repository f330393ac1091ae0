// The options of createMemoryAgent(), checked, and the request settings they make (all but the messages).

import type { BetaMessageParam, BetaThinkingConfigParam } from '../core/sdk-types.js';
import type { MemoryCommandRunner, MemoryRunnableTool } from '../adapters/sdk-runnable.js';
import type { MemorySearchRunnableTool } from '../adapters/search-tool.js';
import { memoryTool } from '../adapters/sdk-runnable.js';
import type { AgentConnection } from './client.js';
import type { ClearThinkingOption, CompactionOption, ContextEdits, ContextManagementOption } from './context-edits.js';
import { contextEdits } from './context-edits.js';
import type { MemoryAgentListener } from './events.js';
import { searchSetting } from './search-option.js';

/** The newest Sonnet in the SDK's own `Model` list (1.16 and 1.17). `model` is free text: any id the key can use. */
export const DEFAULT_AGENT_MODEL = 'claude-sonnet-5-5';

export interface MemoryAgentOptions extends AgentConnection {
  /** Where Claude's `/memories` live, e.g. an `IndexedDBMemoryTool`. */
  tool: MemoryCommandRunner;
  /** Default {@link DEFAULT_AGENT_MODEL}. */
  model?: string | undefined;
  /** The system prompt of every request. Default: none. */
  system?: string | undefined;
  /**
   * Default false. True offers Claude `memory_search` beside the memory tool (the tool must have `search`, as an
   * `IndexedDBMemoryTool` has) and adds `SEARCH_PROMPT_LINE` to the system prompt.
   */
  search?: boolean | undefined;
  /** `max_tokens` of each request. Default 4096. */
  maxTokens?: number | undefined;
  /** Requests per `send()` at most (each tool round trip is one). Default 20. */
  maxIterations?: number | undefined;
  /** The API's `thinking`, sent with every request. Default: none sent, so the model's own default. */
  thinking?: BetaThinkingConfigParam | undefined;
  /** Clears old tool uses from long conversations (`clear_tool_uses_20250919`); `exclude_tools` keeps some. */
  contextManagement?: ContextManagementOption | undefined;
  /** Clears the thinking of older turns (`clear_thinking_20251015`). */
  clearThinking?: ClearThinkingOption | undefined;
  /** Lets the API summarize the conversation as it reaches a size (`compact_20260112`). */
  compaction?: CompactionOption | undefined;
  /**
   * Default true: each reply streams, its text told as it comes. `false` asks for each reply whole (for a proxy that
   * cannot pass a stream): the same events, usage and history, each message's text in one `text` event.
   */
  stream?: boolean | undefined;
  /** A conversation to continue, e.g. the `messages` of an agent saved earlier. */
  messages?: BetaMessageParam[] | undefined;
  /** The conversation's id, the `source` of its memory writes: default a new random one (and on each `reset()`). */
  conversationId?: string | undefined;
  /** Called with every {@link MemoryAgentEvent}; the same as `agent.subscribe(onEvent)`. */
  onEvent?: MemoryAgentListener | undefined;
}

/** What every request sends besides its messages and betas: named here so no declaration spells an SDK file path. */
export interface RequestSettings {
  params: {
    model: string;
    max_tokens: number;
    max_iterations: number;
    tools: Array<MemoryRunnableTool | MemorySearchRunnableTool>;
    system?: string;
    thinking?: BetaThinkingConfigParam;
    context_management?: NonNullable<ContextEdits['context_management']>;
  };
  edits: ContextEdits;
  stream: boolean;
}

/**
 * What every request of the agent sends besides its messages and betas (`params`), and the context edits they hold;
 * throws a TypeError for a bad count or a combination the API refuses, before any request.
 */
export function requestSettings(options: MemoryAgentOptions, conversationId?: () => string): RequestSettings {
  // The conversation's id, read at each call: `reset()` starts a new conversation with the same tools.
  const tool = memoryTool(options.tool, conversationId ? { source: conversationId } : {});
  checkCount('maxTokens', options.maxTokens);
  // The SDK's runner takes 0 as "no cap": a count of requests must be one at least.
  checkCount('maxIterations', options.maxIterations);
  const maxTokens = options.maxTokens ?? 4096;
  checkThinking(options.thinking, maxTokens);
  if (options.stream !== undefined && typeof options.stream !== 'boolean') {
    throw new TypeError(`\`stream\` must be true or false, got ${JSON.stringify(options.stream)}`);
  }
  const edits = contextEdits(options);
  const search = searchSetting(options.search, options.tool, options.system);
  const params = {
    model: options.model ?? DEFAULT_AGENT_MODEL,
    max_tokens: maxTokens,
    max_iterations: options.maxIterations ?? 20,
    tools: [tool, ...search.tools],
    ...(search.system !== undefined ? { system: search.system } : {}),
    ...(options.thinking !== undefined ? { thinking: options.thinking } : {}),
    ...(edits.context_management ? { context_management: edits.context_management } : {}),
  };
  return { params, edits, stream: options.stream ?? true };
}

function checkCount(name: string, value: number | undefined): void {
  if (value !== undefined && (!Number.isSafeInteger(value) || value < 1)) {
    throw new TypeError(`\`${name}\` must be a positive integer, got ${String(value)}`);
  }
}

/** The API's rule for a thinking budget: 1,024 tokens at least, and less than `max_tokens`. */
function checkThinking(thinking: BetaThinkingConfigParam | undefined, maxTokens: number): void {
  if (thinking?.type !== 'enabled') return;
  const budget = thinking.budget_tokens;
  if (!Number.isSafeInteger(budget) || budget < 1024 || budget >= maxTokens) {
    throw new TypeError(
      `\`thinking.budget_tokens\` must be an integer from 1024 to less than \`maxTokens\` (${maxTokens}), ` +
        `got ${String(budget)}`,
    );
  }
}
