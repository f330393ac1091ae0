// The agent's `search: true`: `memory_search` offered beside the memory tool, and the system prompt's line on when to
// search rather than list. Off by default: an agent without it sends what it always sent.

import type { MemorySearchRunnableTool, MemorySearcher } from '../adapters/search-tool.js';
import { memorySearchTool } from '../adapters/search-tool.js';

/** The line added to the system prompt when search is offered. */
export const SEARCH_PROMPT_LINE =
  'Your memory can be searched with the memory_search tool: when /memories holds many files, or you look for a fact ' +
  'and do not know which file holds it, search rather than list folders, then view the lines it points to.';

/** The tools `search` adds and the system prompt it makes of `system`; a TypeError for a tool that cannot search. */
export function searchSetting(
  search: boolean | undefined,
  tool: object,
  system: string | undefined,
): { tools: MemorySearchRunnableTool[]; system: string | undefined } {
  if (search !== undefined && typeof search !== 'boolean') {
    throw new TypeError(`\`search\` must be true or false, got ${JSON.stringify(search)}`);
  }
  if (search !== true) return { tools: [], system };
  if (!isSearcher(tool)) {
    throw new TypeError('`search: true` needs a tool with search(), read() and limits, such as an IndexedDBMemoryTool');
  }
  return {
    tools: [memorySearchTool(tool)],
    system: system === undefined ? SEARCH_PROMPT_LINE : `${system}\n\n${SEARCH_PROMPT_LINE}`,
  };
}

function isSearcher(tool: object): tool is MemorySearcher {
  const candidate = tool as Partial<Record<keyof MemorySearcher, unknown>>;
  return (
    typeof candidate.search === 'function' &&
    typeof candidate.read === 'function' &&
    typeof (candidate.limits as { maxReplyChars?: unknown } | undefined)?.maxReplyChars === 'number'
  );
}
