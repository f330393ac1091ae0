// aiSdkMemoryTool(): the memory tool for the Vercel AI SDK (`ai` 6 with `@ai-sdk/anthropic` 3), answering Claude
// exactly as the Anthropic SDK's toolRunner does. Only types come from `ai`: it loads neither `ai` nor the provider.

import type { FlexibleSchema, Tool } from 'ai';
import type { MemoryCommandRunner } from './command-runner.js';
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

/**
 * `anthropic.tools.memory_20250818` of `@ai-sdk/anthropic`, run on `tool`. A call's output is the `tool_result` block
 * the Anthropic SDK's toolRunner would send (`memoryToolResult`); Claude gets its text, flagged `is_error` as there.
 *
 * @example
 * const tools = { memory: aiSdkMemoryTool(tool) }; // the key must be `memory`: the name Claude calls it by
 * const { text } = await generateText({ model: anthropic(model), tools, stopWhen: stepCountIs(20), prompt });
 */
export function aiSdkMemoryTool(tool: MemoryCommandRunner): Tool<unknown, MemoryToolResultBlock> {
  return {
    // What `anthropic.tools.memory_20250818()` makes (a test checks it), built here: the provider's own object has
    // types from its copy of @ai-sdk/provider-utils, which `ai`'s types refuse when the two copies differ.
    type: 'provider',
    id: 'anthropic.memory_20250818',
    args: {},
    inputSchema: anyInput,
    execute: (input, { toolCallId }) => memoryToolResult(tool, { id: toolCallId, name: 'memory', input }),
    toModelOutput: ({ output }) => ({ type: output.is_error ? 'error-text' : 'text', value: output.content }),
  };
}
