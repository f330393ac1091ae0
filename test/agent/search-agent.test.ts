// createMemoryAgent({ search: true }): memory_search offered beside the memory tool with its prompt line, answered
// with search_result blocks in the conversation; nothing of it without the option.

import { describe, expect, it } from 'vitest';
import { createMemoryAgent, SEARCH_PROMPT_LINE } from '../../src/entries/agent.js';
import type { MemoryAgentEvent, MemoryAgentOptions } from '../../src/entries/agent.js';
import { createScriptedClaude } from '../../src/offline/scripted-claude.js';
import type { ScriptedStep } from '../../src/offline/scripted-claude.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';

const open = toolsClosedAfterEach('search-agent');

const SEARCHES: ScriptedStep[] = [
  { toolUses: [{ name: 'memory_search', input: { query: 'flight' } }] },
  { text: 'Your flight is LX 318.' },
];

async function agentWith(turns: ScriptedStep[], options: Partial<MemoryAgentOptions> = {}) {
  const tool = await open();
  await tool.execute({ command: 'create', path: '/memories/trip.md', file_text: '# Trip\nflight LX 318\nhotel\n' });
  const claude = createScriptedClaude(turns);
  const events: MemoryAgentEvent[] = [];
  const agent = createMemoryAgent({
    tool,
    apiKey: 'sk-ant-test-key',
    fetch: claude.fetch,
    maxRetries: 0,
    onEvent: (event) => events.push(event),
    ...options,
  });
  return { agent, claude, events, tool };
}

describe('createMemoryAgent({ search })', () => {
  it('offers memory_search beside the memory tool and says in the system prompt when to search', async () => {
    const { agent, claude } = await agentWith(SEARCHES, { search: true });
    await agent.send('What is my flight?');
    const request = claude.requests[0];
    expect((request?.tools as Array<{ name: string }>).map((each) => each.name)).toEqual(['memory', 'memory_search']);
    expect(request?.system).toBe(SEARCH_PROMPT_LINE);
    expect(SEARCH_PROMPT_LINE).toMatch(/many files.*search rather than list/);
  });

  it('adds the line after the app\'s own system prompt', async () => {
    const { agent, claude } = await agentWith(SEARCHES, { search: true, system: 'Be brief.' });
    await agent.send('What is my flight?');
    expect(claude.requests[0]?.system).toBe(`Be brief.\n\n${SEARCH_PROMPT_LINE}`);
  });

  it('answers Claude\'s search with search_result blocks, told as a tool_result event', async () => {
    const { agent, events } = await agentWith(SEARCHES, { search: true });
    await agent.send('What is my flight?');
    const result = events.find((event) => event.type === 'tool_result');
    expect(result).toMatchObject({
      is_error: false,
      content: [
        {
          type: 'search_result',
          source: '/memories/trip.md#L1-L3',
          title: '/memories/trip.md',
          content: [
            { type: 'text', text: '     1\t# Trip' },
            { type: 'text', text: '     2\tflight LX 318' },
            { type: 'text', text: '     3\thotel' },
          ],
        },
      ],
    });
  });

  it('offers neither the tool nor the line by default, and a call to it is not found', async () => {
    const { agent, claude, events } = await agentWith(SEARCHES, { system: 'Be brief.' });
    await agent.send('What is my flight?');
    expect((claude.requests[0]?.tools as Array<{ name: string }>).map((each) => each.name)).toEqual(['memory']);
    expect(claude.requests[0]?.system).toBe('Be brief.');
    expect(events.find((event) => event.type === 'tool_result')).toMatchObject({ is_error: true });
  });

  it('refuses search: true on a tool that cannot search, before any request', async () => {
    const tool = { execute: async () => 'ok' };
    expect(() => createMemoryAgent({ tool, apiKey: 'k', search: true })).toThrow(/needs a tool with search\(\)/);
  });
});
