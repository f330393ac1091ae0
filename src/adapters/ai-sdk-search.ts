// aiSdkMemorySearchTool(): `memory_search` for the Vercel AI SDK. `@ai-sdk/anthropic` 3 passes only text, images,
// documents and tool references in a tool result, not `search_result` blocks: Claude reads the same bounded answer
// as text. Only types come from `ai`.

import type { FlexibleSchema, Tool } from 'ai';
import { ERROR_PREFIX } from '../core/replies.js';
import { offerSearch } from '../tool/search-offer.js';
import type { MemorySearcher, SearchAnswer } from './search-answer.js';
import { searchAnswer } from './search-answer.js';
import { SEARCH_TOOL_DESCRIPTION, SEARCH_TOOL_NAME, parseSearchInput, searchInputSchema } from './search-input.js';

/** A call's output: the text Claude reads, flagged as the SDK runner flags an error. */
export interface MemorySearchToolOutput {
  /** The search's answer as text, or the refusal (`Error: …`) Claude reads. */
  content: string;
  /** Set only when the search was refused. */
  is_error?: true;
}

// The schema Claude reads is sent as is; every input goes through to parseSearchInput and `tool.search`, which
// refuse a bad one in the words the SDK runner's `memory_search` uses. A Standard Schema: no import needed.
const searchInput: FlexibleSchema<unknown> = {
  '~standard': {
    version: 1,
    vendor: 'idb-memory-tool',
    validate: (value: unknown) => ({ value }),
    jsonSchema: { input: () => searchInputSchema(), output: () => searchInputSchema() },
  },
};

/**
 * `memory_search` for the AI SDK, backed by `tool`: the answer `memorySearchTool` gives the Anthropic SDK's runner,
 * as text (each run of lines under its `path#Lfrom-Lto`), within `tool.limits.maxReplyChars`.
 *
 * @example
 * const tools = { memory: aiSdkMemoryTool(tool), memory_search: aiSdkMemorySearchTool(tool) }; // keys: the names
 */
export function aiSdkMemorySearchTool(tool: MemorySearcher): Tool<unknown, MemorySearchToolOutput> {
  offerSearch(tool, SEARCH_TOOL_NAME);
  return {
    description: SEARCH_TOOL_DESCRIPTION,
    inputSchema: searchInput,
    execute: async (input) => {
      try {
        return { content: answerText(await searchAnswer(tool, parseSearchInput(input))) };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { content: ERROR_PREFIX + message, is_error: true };
      }
    },
    toModelOutput: ({ output }) => ({ type: output.is_error ? 'error-text' : 'text', value: output.content }),
  };
}

/** The answer as text: each block's source, then its numbered lines; blocks apart by a blank line. Never longer than
 * the answer as JSON, so within the same bound. */
export function answerText(answer: SearchAnswer): string {
  if (typeof answer === 'string') return answer;
  return answer
    .map((block) =>
      block.type === 'text' ? block.text : [block.source, ...block.content.map((line) => line.text)].join('\n'),
    )
    .join('\n\n');
}
