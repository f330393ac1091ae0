// searchAnswer(): what Claude reads for a `memory_search` call, shared by the SDK and AI SDK adapters: a
// `search_result` block per run of matching lines (with a line of context either side), cut to the reply bound.

import { cutText } from '../commands/bounded-replies.js';
import { MEMORY_ROOT } from '../core/paths.js';
import { numberedLine } from '../core/replies.js';
import { wellFormed } from '../core/utf8.js';
import type { SearchHit, SearchOptions, SearchResult } from '../search/types.js';
import { SEARCH_LIMITS } from '../search/types.js';

/** What a search adapter needs of the tool: an `IndexedDBMemoryTool` is one. */
export interface MemorySearcher {
  /** Finds the files matching `query`, best first; see `IndexedDBMemoryTool.search`. */
  search(query: string, options?: SearchOptions): Promise<SearchResult>;
  /** A file's raw text, for the lines of context around each match. */
  read(path: string): Promise<string>;
  /** The tool's limits; the answer is kept within `maxReplyChars`. */
  readonly limits: {
    /** Longest reply Claude reads, in UTF-16 units. */
    readonly maxReplyChars: number;
  };
}

/** What Claude sends to `memory_search`, once `parseSearchInput` has checked its shape. */
export interface MemorySearchInput {
  /** The words to look for; a `"quoted phrase"` matches those words in order. */
  query: string;
  /** A folder (or file) under `/memories` to search in. Default: all of `/memories`. */
  path?: string | undefined;
  /** The most files to answer, best first. Default 20. */
  limit?: number | undefined;
}

/** A text block, as the API takes it inside a `tool_result` or a `search_result`. */
export interface SearchTextBlock {
  /** The block's kind. */
  type: 'text';
  /** The text: one numbered line inside a `search_result`, or a note. */
  text: string;
}

/** The API's `search_result` block (the SDK's `BetaSearchResultBlockParam`), declared here so no SDK is needed. */
export interface SearchResultBlock {
  /** The block's kind. */
  type: 'search_result';
  /** The path and the line range shown: `/memories/prefs.md#L3-L5` (`#L3` for one line). */
  source: string;
  /** The file's path, which the API shows as the citation's title. */
  title: string;
  /** One text block per line, numbered as `view` numbers it: Claude can cite any run of them. */
  content: SearchTextBlock[];
  /** Citations on, so Claude can cite the lines it uses. */
  citations: {
    /** Always `true`. */
    enabled: true;
  };
}

/** A search's answer: a short text when nothing matches, else the results with a last note when cut. */
export type SearchAnswer = string | Array<SearchResultBlock | SearchTextBlock>;

/** One line shown: its number as `view` numbers it, and its text. */
interface ShownLine {
  line: number;
  text: string;
}

/** Characters a block adds to the JSON array of the answer (its comma included): what the bound counts. */
const sizeOf = (block: SearchResultBlock | SearchTextBlock): number => JSON.stringify(block).length + 1;

/**
 * Runs the search and shapes its answer; a bad query rejects with the tool's error. The answer as JSON is at most
 * `tool.limits.maxReplyChars` characters: the best hits first, then a note saying what was left out.
 */
export async function searchAnswer(tool: MemorySearcher, input: MemorySearchInput): Promise<SearchAnswer> {
  const options: SearchOptions = {};
  if (input.path !== undefined) options.path = input.path;
  if (input.limit !== undefined) options.limit = input.limit;
  const result = await tool.search(input.query, options);
  if (result.hits.length === 0) return noMatch(input);
  const max = tool.limits.maxReplyChars;
  // Room for the brackets of the array and for the last note, with its numbers as long as they can be.
  const n = Number.MAX_SAFE_INTEGER;
  const budget = max - 2 - Math.max(sizeOf(note(n, n, true)), sizeOf(note(n, n, false)));
  const blocks: SearchResultBlock[] = [];
  let used = 0;
  let cut = false;
  let files = 0;
  for (const hit of result.hits) {
    const runs = runsOf(hit, await fileLines(tool, hit));
    let shownAny = false;
    for (const run of runs) {
      const block = fitted(hit.path, run, budget - used);
      if (block) {
        blocks.push(block);
        used += sizeOf(block);
        shownAny = true;
      }
      if (!block || block.content.length < run.length) cut = true;
      if (cut) break;
    }
    if (shownAny) files++;
    if (cut) break;
  }
  const last = cut || result.total > files ? [note(files, result.total, cut)] : [];
  return [...blocks, ...last];
}

/** `run` as a block, with as many of its lines as fit in `room` characters; undefined when not even one does. */
function fitted(path: string, run: readonly ShownLine[], room: number): SearchResultBlock | undefined {
  for (let count = run.length; count > 0; count--) {
    const block = resultBlock(path, run.slice(0, count));
    if (sizeOf(block) <= room) return block;
  }
  return undefined;
}

function resultBlock(path: string, lines: readonly ShownLine[]): SearchResultBlock {
  const first = lines[0]?.line ?? 1;
  const last = lines[lines.length - 1]?.line ?? first;
  const range = first === last ? `#L${first}` : `#L${first}-L${last}`;
  return {
    type: 'search_result',
    source: path + range,
    title: path,
    content: lines.map(({ line, text }) => ({ type: 'text', text: wellFormed(numberedLine(line, text)) })),
    citations: { enabled: true },
  };
}

/** The file's lines, or undefined when it is gone or changed since the search (then no context is shown). */
async function fileLines(tool: MemorySearcher, hit: SearchHit): Promise<string[] | undefined> {
  try {
    const lines = (await tool.read(hit.path)).split('\n');
    // A write between the search and the read moves lines: the hit's lines must still be where it says.
    return hit.lines.every(({ line, text }) => lines[line - 1]?.includes(text) === true) ? lines : undefined;
  } catch {
    return undefined;
  }
}

/** The hit's matching lines with one line of context either side, in runs of consecutive lines. */
function runsOf(hit: SearchHit, lines: readonly string[] | undefined): ShownLine[][] {
  const shown = new Map<number, string>();
  for (const { line } of hit.lines) {
    for (const near of lines ? [line - 1, line + 1] : []) {
      const text = lines?.[near - 1];
      if (text !== undefined && near >= 1) shown.set(near, contextLine(text));
    }
  }
  // A matching line is shown as the search cut it (a window around its match when it is long).
  for (const { line, text } of hit.lines) shown.set(line, text);
  const runs: ShownLine[][] = [];
  for (const line of [...shown.keys()].sort((a, b) => a - b)) {
    const run = runs[runs.length - 1];
    const entry = { line, text: shown.get(line) ?? '' };
    if (run && (run[run.length - 1]?.line ?? 0) === line - 1) run.push(entry);
    else runs.push([entry]);
  }
  return runs;
}

/** A line of context, cut to the length the search cuts a matching line to. */
function contextLine(text: string): string {
  return text.length <= SEARCH_LIMITS.lineChars ? text : `${cutText(text, SEARCH_LIMITS.lineChars)}…`;
}

function noMatch(input: MemorySearchInput): string {
  return `No file in ${input.path ?? MEMORY_ROOT} matches ${JSON.stringify(input.query)}.`;
}

/** The last block of a cut answer, or of one that shows fewer files than match. */
function note(files: number, total: number, cut: boolean): SearchTextBlock {
  const shown = `${files} of the ${total} matching files`;
  const text = cut ?
      `[Search results cut to fit: showing ${shown}. View a file's lines with view_range, or narrow the query or path.]`
    : `[Showing the best ${shown}. Narrow the query or path, or raise limit, to see others.]`;
  return { type: 'text', text };
}
