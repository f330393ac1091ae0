// memorySearchTool() under the real SDK runner: the tool Claude is offered, and the tool_result blocks it sends back
// for hits (search_result blocks, bounded), for no match and for a bad query.

import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { memorySearchTool, memoryTool } from '../../src/entries/sdk.js';
import type { SearchResultBlock } from '../../src/entries/sdk.js';
import { createScriptedClaude } from '../../src/offline/scripted-claude.js';
import type { IndexedDBMemoryTool } from '../../src/tool/tool.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { sentToolResults } from './runner-script.js';

const open = toolsClosedAfterEach('search-sdk');

/** Claude calls memory_search with each of `inputs` in one turn; the tool_result blocks the runner sent. */
async function searched(tool: IndexedDBMemoryTool, inputs: unknown[]) {
  const claude = createScriptedClaude([
    { toolUses: inputs.map((input) => ({ name: 'memory_search', input })) },
    { text: 'ok' },
  ]);
  const client = new Anthropic({ apiKey: 'k', fetch: claude.fetch, maxRetries: 0, dangerouslyAllowBrowser: true });
  await client.beta.messages
    .toolRunner({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }],
      tools: [memoryTool(tool), memorySearchTool(tool)],
    })
    .runUntilDone();
  return { claude, results: sentToolResults(claude) };
}

const write = (tool: IndexedDBMemoryTool, path: string, file_text: string) =>
  tool.execute({ command: 'create', path, file_text });

describe('memorySearchTool', () => {
  it('declares memory_search with a schema whose descriptions say when to search', async () => {
    const tool = await open();
    const { claude } = await searched(tool, []);
    const declared = (claude.requests[0]?.tools as Array<Record<string, unknown>>)[1];
    expect(declared).toMatchObject({ name: 'memory_search', input_schema: { type: 'object', required: ['query'] } });
    expect(declared?.description).toMatch(/rather than listing folders when there are many files/);
    expect(JSON.stringify(declared?.input_schema)).toContain('"limit"');
  });

  it('answers search_result blocks: the path with its line range, the lines numbered as view numbers them', async () => {
    const tool = await open();
    await write(tool, '/memories/prefs.md', '# Prefs\nName: Zoë\nDrinks green tea\nin the morning\nend\nlast\n');
    await write(tool, '/memories/other.md', 'nothing here\n');
    const { results } = await searched(tool, [{ query: 'green tea' }]);
    expect(results).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_scripted_1',
        content: [
          {
            type: 'search_result',
            source: '/memories/prefs.md#L2-L4',
            title: '/memories/prefs.md',
            content: [
              { type: 'text', text: '     2\tName: Zoë' },
              { type: 'text', text: '     3\tDrinks green tea' },
              { type: 'text', text: '     4\tin the morning' },
            ],
            citations: { enabled: true },
          },
        ],
      },
    ]);
    // The same lines as `view` shows them, so Claude can view the exact range.
    const viewed = await tool.execute({ command: 'view', path: '/memories/prefs.md', view_range: [2, 4] });
    expect(viewed.split('\n').slice(1)).toEqual(['     2\tName: Zoë', '     3\tDrinks green tea', '     4\tin the morning']);
  });

  it('gives each run of lines its own block, one line of context either side, first line at #L1', async () => {
    const tool = await open();
    const lines = ['tea at one', ...Array.from({ length: 8 }, (_, i) => `line ${i + 2}`), 'tea at ten'];
    await write(tool, '/memories/a.md', lines.join('\n'));
    const { results } = await searched(tool, [{ query: 'tea', path: '/memories' }]);
    const blocks = results[0]?.content as SearchResultBlock[];
    expect(blocks.map((block) => [block.source, block.content.map((text) => text.text)])).toEqual([
      ['/memories/a.md#L1-L2', ['     1\ttea at one', '     2\tline 2']],
      ['/memories/a.md#L9-L10', ['     9\tline 9', '    10\ttea at ten']],
    ]);
  });

  it('says when more files match than limit lets through', async () => {
    const tool = await open();
    for (const name of ['a', 'b', 'c']) await write(tool, `/memories/${name}.md`, 'tea\n');
    const { results } = await searched(tool, [{ query: 'tea', limit: 2 }]);
    const content = results[0]?.content as Array<{ type: string; text?: string }>;
    expect(content.map((block) => block.type)).toEqual(['search_result', 'search_result', 'text']);
    expect(content[2]?.text).toBe('[Showing the best 2 of the 3 matching files. Narrow the query or path, or raise limit, to see others.]');
  });

  it('answers a short plain text when nothing matches', async () => {
    const tool = await open();
    await write(tool, '/memories/notes/a.md', 'coffee\n');
    const { results } = await searched(tool, [{ query: 'green tea' }, { query: 'tea', path: '/memories/notes' }]);
    expect(results.map(({ content, is_error }) => ({ content, is_error }))).toEqual([
      { content: 'No file in /memories matches "green tea".', is_error: undefined },
      { content: 'No file in /memories/notes matches "tea".', is_error: undefined },
    ]);
  });

  it('answers a bad query, limit, path or input with an error result in the tool\'s words', async () => {
    const tool = await open();
    const { results } = await searched(tool, [
      { query: '   ' },
      { query: 5 },
      { query: 'tea', limit: 0 },
      { query: 'tea', path: '/etc' },
      { query: 'tea', path: '/memories/missing' },
      'tea',
    ]);
    expect(results.every((result) => result.is_error === true)).toBe(true);
    expect(results.map((result) => result.content)).toEqual([
      'Error: The search query is empty: give the words to search for.',
      'Error: The search query must be a string, not 5.',
      'Error: The search limit must be a whole number from 1 to 1000, not 0.',
      expect.stringMatching(/^Error: .*\/etc/),
      'Error: The path /memories/missing does not exist. Please provide a valid path.',
      'Error: Invalid input for memory_search: expected an object with "query", got string.',
    ]);
  });

  it('never answers more than maxReplyChars, however many big hits, and says it cut them', async () => {
    const tool = await open({ limits: { maxReplyChars: 10_000 } });
    const long = 'tea '.repeat(300);
    const text = Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? `${long}${i}` : `context ${'x'.repeat(900)}`));
    for (let i = 0; i < 40; i++) await write(tool, `/memories/f${i}.md`, text.join('\n'));
    const { results } = await searched(tool, [{ query: 'tea', limit: 40 }]);
    const content = results[0]?.content as Array<{ type: string; text?: string }>;
    expect(JSON.stringify(content).length).toBeLessThanOrEqual(10_000);
    expect(content.filter((block) => block.type === 'search_result').length).toBeGreaterThan(1);
    expect(content.at(-1)?.text).toMatch(/^\[Search results cut to fit: showing \d+ of the 40 matching files\./);
    // Context lines are cut as the search cuts matching lines; every block keeps at least one line.
    for (const block of content as SearchResultBlock[]) {
      if (block.type !== 'search_result') continue;
      expect(block.content.length).toBeGreaterThan(0);
      for (const line of block.content) expect(line.text.length).toBeLessThanOrEqual(420);
    }
  });

  it('is the SDK\'s search_result block and runnable tool, by type', () => {
    expectTypeOf<SearchResultBlock>().toExtend<Anthropic.Beta.BetaSearchResultBlockParam>();
    expectTypeOf<SearchResultBlock>().toExtend<Anthropic.Beta.Messages.BetaToolResultContentBlockParam>();
  });
});
