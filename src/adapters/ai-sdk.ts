// aiSdkMemoryTool(): the memory tool for the Vercel AI SDK (`ai` 6 or 7, with `@ai-sdk/anthropic` 3 or 4), answering
// Claude exactly as the Anthropic SDK's toolRunner does. Only types come from `ai`: it loads neither `ai` nor the
// provider.

import type { FlexibleSchema, Tool } from 'ai';
import { parseMemoryCommand } from '../core/command-input.js';
import type { MemoryCommandRunner, MemoryRunContext } from './command-runner.js';
import type { MemoryToolResultBlock } from './tool-result.js';
import { memoryToolResult } from './tool-result.js';

// The provider's own schema would refuse a malformed call before `execute`, in the AI SDK's words; this one lets every
// input through to parseMemoryCommand, which refuses it as the runner does. A Standard Schema: no import needed.
const anyInput: FlexibleSchema<unknown> = {
  '~standard': {
    version: 1,
    vendor: 'idb-memory-tool',
    validate: (value: unknown) => ({ value }),
    jsonSchema: { input: () => ({ type: 'object' }), output: () => ({ type: 'object' }) },
  },
};

/** `aiSdkMemoryTool`'s options. */
export interface AiSdkMemoryToolOptions {
  /** Where the writes come from (e.g. a chat id), kept in their history entries; a function is read per call. */
  source?: string | (() => string | undefined) | undefined;
  /**
   * The AI SDK's own tool approval (`needsApproval`): `'writes'` asks for every command but `view` (a malformed call
   * is not asked: the tool refuses it), `true` for every call, or the AI SDK's function. Default: none, so the
   * tool's own `approve` hook, if any, asks inside `execute` (./README.md, "Approval in the AI SDK").
   */
  needsApproval?: 'writes' | boolean | NonNullable<Tool<unknown, MemoryToolResultBlock>['needsApproval']> | undefined;
}

/**
 * `anthropic.tools.memory_20250818` of `@ai-sdk/anthropic`, run on `tool`. A call's output is the `tool_result` block
 * the Anthropic SDK's toolRunner would send (`memoryToolResult`); Claude gets its text, flagged `is_error` as there.
 *
 * @example
 * const tools = { memory: aiSdkMemoryTool(tool) }; // the key must be `memory`: the name Claude calls it by
 * const { text } = await generateText({ model: anthropic(model), tools, stopWhen: stepCountIs(20), prompt });
 */
export function aiSdkMemoryTool(
  tool: MemoryCommandRunner,
  options: AiSdkMemoryToolOptions = {},
): Tool<unknown, MemoryToolResultBlock> {
  const { source, needsApproval } = options;
  const context = (signal: AbortSignal | undefined): MemoryRunContext | undefined => {
    const from = typeof source === 'function' ? source() : source;
    if (from === undefined && !signal) return undefined;
    return { ...(from === undefined ? {} : { source: from }), ...(signal ? { signal } : {}) };
  };
  return {
    // What `anthropic.tools.memory_20250818()` makes (a test checks it), built here: the provider's own object has
    // types from its copy of @ai-sdk/provider-utils, which `ai`'s types refuse when the two copies differ.
    type: 'provider',
    // `ai` 7 tells a provider tool the app runs from one the API runs by this flag (6 has none and reads it as unset).
    isProviderExecuted: false,
    id: 'anthropic.memory_20250818',
    args: {},
    inputSchema: anyInput,
    execute: (input, { toolCallId, abortSignal }) =>
      memoryToolResult(tool, { id: toolCallId, name: 'memory', input }, context(abortSignal)),
    ...(needsApproval === undefined ? {} : { needsApproval: needsApproval === 'writes' ? isWrite : needsApproval }),
    toModelOutput: ({ output }) => ({ type: output.is_error ? 'error-text' : 'text', value: output.content }),
  };
}

/** Whether a call is a write: a command other than `view`; a malformed one is not (the tool refuses it unasked). */
function isWrite(input: unknown): boolean {
  try {
    return parseMemoryCommand(input).command !== 'view';
  } catch {
    return false;
  }
}
