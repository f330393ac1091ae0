// The `memory_search` tool's name, description and input schema as Claude reads them, and the check of its raw input,
// shared by the SDK and AI SDK adapters. The query itself is checked by `tool.search`, in its words.

import type { MemorySearchInput } from './search-answer.js';

export const SEARCH_TOOL_NAME = 'memory_search';

export const SEARCH_TOOL_DESCRIPTION =
  'Search the files in /memories by their words; answers the best matching lines, numbered as `view` numbers them, ' +
  'with a line of context either side. Use it rather than listing folders when there are many files, or to find a ' +
  'fact whose file you do not know; then `view` the file with view_range for more. Case and accents do not matter; ' +
  '"a quoted phrase" matches those words in that order.';

/** The input schema sent to the API, as a JSON schema. */
export interface SearchInputSchema {
  /** Always `object`. */
  type: 'object';
  /** `query`, `path` and `limit`, each with the description Claude reads. */
  properties: Record<string, Record<string, unknown>>;
  /** `['query']`. */
  required: string[];
  /** `false`: any other field is refused. */
  additionalProperties: boolean;
  [field: string]: unknown;
}

/** The input schema, a new copy each time: its descriptions are what Claude reads of each field. */
export const searchInputSchema = (): SearchInputSchema => ({
  type: 'object',
  properties: {
    query: {
      type: 'string',
      description: 'The words to look for, e.g. `green tea` or `"flight number"`; every file holding any of them matches, the most first.',
    },
    path: {
      type: 'string',
      description: 'A folder (or one file) under /memories to search in, e.g. `/memories/projects`. Default: all of /memories.',
    },
    limit: {
      type: 'integer',
      minimum: 1,
      description: 'The most files to answer, best first. Default 20.',
    },
  },
  required: ['query'],
  additionalProperties: false,
});

/** Claude's raw input as {@link MemorySearchInput}; the fields' values are left to `tool.search` to check. */
export function parseSearchInput(input: unknown): MemorySearchInput {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new TypeError(`Invalid input for ${SEARCH_TOOL_NAME}: expected an object with "query", got ${typeName(input)}.`);
  }
  const { query, path, limit } = input as Record<string, unknown>;
  if (path !== undefined && typeof path !== 'string') {
    throw new TypeError(`Invalid input for ${SEARCH_TOOL_NAME}: "path" must be a string, got ${typeName(path)}.`);
  }
  // `query` and `limit` go through as sent: `tool.search` refuses a bad one in its own words.
  const parsed: MemorySearchInput = { query: query as string };
  if (path !== undefined) parsed.path = path;
  if (limit !== undefined) parsed.limit = limit as number;
  return parsed;
}

const typeName = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value);
