// memorySearchTool(): `memory_search`, a client tool for the SDK's toolRunner that answers with `search_result`
// blocks Claude can cite (./search-answer.ts). Declared from the SDK's public types only; nothing of it is loaded.

import type { BetaTool } from '../core/sdk-types.js';
import { offerSearch } from '../tool/search-offer.js';
import type { MemorySearchInput, MemorySearcher, SearchAnswer } from './search-answer.js';
import { searchAnswer } from './search-answer.js';
import type { SearchInputSchema } from './search-input.js';
import { SEARCH_TOOL_DESCRIPTION, SEARCH_TOOL_NAME, parseSearchInput, searchInputSchema } from './search-input.js';

export type { MemorySearchInput, MemorySearcher };

/** Extra properties of the tool definition sent to the API, e.g. `cache_control`. */
export type MemorySearchToolExtraProps = Omit<BetaTool, 'name' | 'input_schema' | 'type'>;

/** What `toolRunner` takes: the SDK's `BetaRunnableTool` for a custom tool, declared from its public types. */
export type MemorySearchRunnableTool = MemorySearchToolExtraProps & {
  /** The tool's name as Claude calls it. */
  name: 'memory_search';
  /** What Claude reads of when to use the tool. */
  description: string;
  /** The JSON schema of `query`, `path` and `limit`, with the descriptions Claude reads. */
  input_schema: SearchInputSchema;
  /** Checks Claude's raw input's shape; the values are checked by `tool.search`. */
  parse(input: unknown): MemorySearchInput;
  /** Searches and resolves to the blocks Claude reads, within `maxReplyChars`; rejects when the search is refused. */
  run(input: MemorySearchInput): Promise<SearchAnswer>;
};

/**
 * `memory_search` for `toolRunner`, backed by `tool`; give it beside {@link memoryTool}. A folder listing cut to the
 * reply bound then tells Claude it can search.
 *
 * @example
 * const tools = [memoryTool(tool), memorySearchTool(tool)];
 * const runner = client.beta.messages.toolRunner({ model, max_tokens: 2048, messages, tools });
 */
export function memorySearchTool(
  tool: MemorySearcher,
  extraProps?: MemorySearchToolExtraProps,
): MemorySearchRunnableTool {
  offerSearch(tool, SEARCH_TOOL_NAME);
  return {
    description: SEARCH_TOOL_DESCRIPTION,
    ...extraProps,
    name: SEARCH_TOOL_NAME,
    input_schema: searchInputSchema(),
    parse: parseSearchInput,
    run: (input) => searchAnswer(tool, input),
  };
}
