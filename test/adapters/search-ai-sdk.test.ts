// aiSdkMemorySearchTool() in the Vercel AI SDK: @ai-sdk/anthropic carries no search_result block in a tool result,
// so Claude receives the SDK runner's answer as text, bounded the same way, errors flagged.

import { createAnthropic } from '@ai-sdk/anthropic';
import { generateText, stepCountIs, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { aiSdkMemorySearchTool, aiSdkMemoryTool } from '../../src/entries/ai-sdk.js';
import { createScriptedClaude } from '../../src/offline/scripted-claude.js';
import type { IndexedDBMemoryTool } from '../../src/tool/tool.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { sentToolResults } from './runner-script.js';

const open = toolsClosedAfterEach('search-ai-sdk');

/** Claude calls memory_search with each of `inputs` in one turn, through `mode`; what it received, and the request. */
async function searched(mode: 'generateText' | 'streamText', tool: IndexedDBMemoryTool, inputs: unknown[]) {
  const toolUses = inputs.map((input, i) => ({ id: `toolu_${i}`, name: 'memory_search', input }));
  const claude = createScriptedClaude([{ toolUses }, { text: 'Done.' }]);
  const settings = {
    model: createAnthropic({ apiKey: 'offline', fetch: claude.fetch })('claude-sonnet-4-5'),
    prompt: 'Where is my flight number?',
    tools: { memory: aiSdkMemoryTool(tool), memory_search: aiSdkMemorySearchTool(tool) },
    stopWhen: stepCountIs(3),
    maxRetries: 0,
  };
  if (mode === 'generateText') await generateText(settings);
  else await streamText(settings).text;
  const received = sentToolResults(claude).sort((a, b) => String(a.tool_use_id).localeCompare(String(b.tool_use_id)));
  return { claude, received: received.map(({ content, is_error }) => ({ content, is_error })) };
}

describe('aiSdkMemorySearchTool', () => {
  for (const mode of ['generateText', 'streamText'] as const) {
    it(`${mode}: Claude receives the matching lines as text under their path#range, no match and errors as the runner words them`, async () => {
      const tool = await open();
      await tool.execute({ command: 'create', path: '/memories/trip.md', file_text: '# Trip\nflight LX 318\nhotel\n' });
      const { claude, received } = await searched(mode, tool, [{ query: 'flight' }, { query: 'ferry' }, { query: '' }]);
      expect(received).toEqual([
        { content: '/memories/trip.md#L1-L3\n     1\t# Trip\n     2\tflight LX 318\n     3\thotel', is_error: undefined },
        { content: 'No file in /memories matches "ferry".', is_error: undefined },
        { content: 'Error: The search query is empty: give the words to search for.', is_error: true },
      ]);
      const offered = (claude.requests[0]?.tools as Array<Record<string, unknown>>).find((each) => each.name === 'memory_search');
      expect(offered).toMatchObject({ input_schema: { type: 'object', required: ['query'] } });
      expect(offered?.description).toMatch(/rather than listing folders/);
    });
  }

  it('keeps the text within maxReplyChars with many big hits, and says it cut them', async () => {
    const tool = await open({ limits: { maxReplyChars: 10_000 } });
    const text = Array.from({ length: 20 }, (_, i) => `${'tea '.repeat(150)}${i}\n${'x'.repeat(800)}`).join('\n');
    for (let i = 0; i < 30; i++) await tool.execute({ command: 'create', path: `/memories/f${i}.md`, file_text: text });
    const { received } = await searched('generateText', tool, [{ query: 'tea', limit: 30 }]);
    const content = String(received[0]?.content);
    expect(content.length).toBeLessThanOrEqual(10_000);
    expect(content).toMatch(/\n\n\[Search results cut to fit: showing \d+ of the 30 matching files\.[^\n]*\]$/);
  });

  it('tells view that search is offered: a cut listing names memory_search', async () => {
    const tool = await open({ limits: { maxReplyChars: 10_000 } });
    for (let i = 0; i < 60; i++) await tool.execute({ command: 'create', path: `/memories/${i}-${'n'.repeat(200)}.md`, file_text: 'x' });
    aiSdkMemorySearchTool(tool);
    expect(await tool.execute({ command: 'view', path: '/memories' })).toMatch(/, or search with memory_search\.\]$/);
  });
});
