// `idb-memory-tool/ai-sdk`: the memory tool for the Vercel AI SDK (`ai` 6 or 7, with `@ai-sdk/anthropic`). Types only
// from `ai`; nothing of it or the provider is loaded.
/** @module idb-memory-tool/ai-sdk */

export { aiSdkMemoryTool } from '../adapters/ai-sdk.js';
export type { AiSdkMemoryToolOptions } from '../adapters/ai-sdk.js';
export { aiSdkMemorySearchTool } from '../adapters/ai-sdk-search.js';
export type { MemorySearchToolOutput } from '../adapters/ai-sdk-search.js';
export type { MemorySearcher } from '../adapters/search-answer.js';
export type { MemoryCommandRunner, MemoryRunContext } from '../adapters/command-runner.js';
export type { MemoryToolResultBlock } from '../adapters/tool-result.js';
