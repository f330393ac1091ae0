// `idb-memory-tool/sdk`: the tool as `@anthropic-ai/sdk`'s tool runner takes it. No import of the SDK at run time;
// its types name the SDK's public `Anthropic` namespace only.
/** @module idb-memory-tool/sdk */

export { memoryTool } from '../adapters/sdk-runnable.js';
export type {
  MemoryCommandRunner,
  MemoryRunContext,
  MemoryRunnableTool,
  MemoryToolExtraProps,
  MemoryToolOptions,
} from '../adapters/sdk-runnable.js';
export { memorySearchTool } from '../adapters/search-tool.js';
export type {
  MemorySearchInput,
  MemorySearcher,
  MemorySearchRunnableTool,
  MemorySearchToolExtraProps,
} from '../adapters/search-tool.js';
export type { SearchAnswer, SearchResultBlock, SearchTextBlock } from '../adapters/search-answer.js';
export type { SearchInputSchema } from '../adapters/search-input.js';
