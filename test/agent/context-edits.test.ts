// The three context edits together: composed into the one `context_management` the API expects, with their betas;
// refused before any request when the API would refuse them; what the API cleared told to the page.

import { beforeEach, describe, expect, it } from 'vitest';
import { IndexedDBMemoryTool } from '../../src/index.js';
import { COMPACTION_BETA, CONTEXT_MANAGEMENT_BETA, createMemoryAgent } from '../../src/entries/agent.js';
import type { MemoryAgentEvent, MemoryAgentOptions } from '../../src/entries/agent.js';
import { contextEdits } from '../../src/agent/context-edits.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { eventsOf, scriptedAgent } from './scripted-agent.js';

let tool: IndexedDBMemoryTool;
const open = toolsClosedAfterEach('agent-context-edits');
beforeEach(async () => {
  tool = await open();
});

describe('context edits', () => {
  it('composes all three into one context_management, clearing thinking first and compacting last, with both betas', async () => {
    const { agent, claude } = scriptedAgent(
      {
        tool,
        thinking: { type: 'adaptive' },
        compaction: { trigger: { type: 'input_tokens', value: 80_000 }, instructions: 'Keep the plan.', pauseAfterCompaction: false },
        contextManagement: { exclude_tools: ['memory'], keep: { type: 'tool_uses', value: 4 } },
        clearThinking: { keep: { type: 'thinking_turns', value: 2 } },
      },
      [{ text: 'ok' }],
    );
    await agent.send('go');
    const [request] = claude.requests;
    expect(request?.context_management).toEqual({
      edits: [
        { type: 'clear_thinking_20251015', keep: { type: 'thinking_turns', value: 2 } },
        { type: 'clear_tool_uses_20250919', exclude_tools: ['memory'], keep: { type: 'tool_uses', value: 4 } },
        {
          type: 'compact_20260112',
          trigger: { type: 'input_tokens', value: 80_000 },
          instructions: 'Keep the plan.',
          pause_after_compaction: false,
        },
      ],
    });
    expect(request?.thinking).toEqual({ type: 'adaptive' });
    expect(request?.headers['anthropic-beta']).toBe(`${CONTEXT_MANAGEMENT_BETA},${COMPACTION_BETA}`);
  });

  it('sends each edit’s own beta only: none without an edit, compaction’s alone, context management’s for either clearing', () => {
    expect(contextEdits({})).toEqual({ betas: [], compacts: false });
    expect(contextEdits({ contextManagement: false, clearThinking: false, compaction: false })).toEqual({ betas: [], compacts: false });
    expect(contextEdits({ compaction: true })).toEqual({
      context_management: { edits: [{ type: 'compact_20260112' }] },
      betas: [COMPACTION_BETA],
      compacts: true,
    });
    expect(contextEdits({ clearThinking: true })).toEqual({
      context_management: { edits: [{ type: 'clear_thinking_20251015' }] },
      betas: [CONTEXT_MANAGEMENT_BETA],
      compacts: false,
    });
    expect(contextEdits({ contextManagement: true, clearThinking: { keep: 'all' } }).context_management?.edits.map((edit) => edit.type)).toEqual([
      'clear_thinking_20251015',
      'clear_tool_uses_20250919',
    ]);
  });

  it('refuses unknown keys and what the API would refuse, before any request', () => {
    const refused: Array<[Partial<MemoryAgentOptions>, RegExp]> = [
      [{ contextManagement: { exclude_tool: ['memory'] } as never }, /`contextManagement` has unknown keys: exclude_tool/],
      [{ contextManagement: { type: 'clear_tool_uses_20250919' } as never }, /unknown keys: type/],
      [{ contextManagement: { exclude_tools: 'memory' } as never }, /exclude_tools` must be a list of tool names/],
      [{ clearThinking: { keep: 'all', turns: 1 } as never }, /`clearThinking` has unknown keys: turns/],
      [{ compaction: { pause_after_compaction: true } as never }, /`compaction` has unknown keys: pause_after_compaction \(known: trigger, instructions, pauseAfterCompaction\)/],
      [{ compaction: { trigger: 100_000 } as never }, /`compaction.trigger` must be \{ type: 'input_tokens'/],
      [{ compaction: { trigger: { type: 'input_tokens', value: 0 } } }, /`compaction.trigger` must be 50,000 input tokens or more/],
      [{ compaction: { trigger: { type: 'input_tokens', value: 49_999 } } }, /50,000 input tokens or more \(the API's minimum; its default is 150,000\), got 49999/],
      [{ compaction: { trigger: { type: 'input_tokens', value: 60_000, unit: 'k' } } as never }, /`compaction.trigger` has unknown keys: unit/],
      [{ compaction: { trigger: null } as never }, /`compaction.trigger` must be/],
      [{ compaction: { pauseAfterCompaction: 'yes' } as never }, /`compaction.pauseAfterCompaction` must be true or false/],
      [{ contextManagement: { keep: { type: 'tool_uses', value: 3, min: 1 } } as never }, /`contextManagement.keep` has unknown keys: min \(known: type, value\)/],
      [{ contextManagement: { keep: { type: 'tool_use', value: 3 } } as never }, /`contextManagement.keep` must be \{ type: 'tool_uses'/],
      [{ contextManagement: { trigger: { type: 'input_tokens', value: 30_000, at: 1 } } as never }, /`contextManagement.trigger` has unknown keys: at/],
      [{ contextManagement: { trigger: { type: 'turns', value: 3 } } as never }, /`contextManagement.trigger` must be \{ type: 'input_tokens' \| 'tool_uses'/],
      [{ contextManagement: { clear_at_least: { type: 'input_tokens', value: 5_000, soft: true } } as never }, /`contextManagement.clear_at_least` has unknown keys: soft/],
      [{ contextManagement: { clear_at_least: { type: 'input_tokens', value: -1 } } }, /`contextManagement.clear_at_least.value` must be 0 or more/],
      [{ clearThinking: { keep: { type: 'thinking_turns', value: 2, last: true } } as never }, /`clearThinking.keep` has unknown keys: last/],
      [{ clearThinking: { keep: { type: 'all', value: 2 } } as never }, /`clearThinking.keep` has unknown keys: value \(known: type\)/],
      [{ clearThinking: { keep: 'some' } as never }, /`clearThinking.keep` must be \{ type: 'thinking_turns'/],
      [{ stream: 'no' as never }, /`stream` must be true or false/],
      [{ compaction: { instructions: 7 } as never }, /`compaction.instructions` must be a string/],
      [{ compaction: 'yes' as never }, /`compaction` must be true, false or an object/],
      [{ clearThinking: true, thinking: { type: 'disabled' } }, /there is no thinking to clear/],
      [{ thinking: { type: 'enabled', budget_tokens: 512 } }, /`thinking.budget_tokens` must be an integer from 1024/],
      [{ thinking: { type: 'enabled', budget_tokens: 4096 }, maxTokens: 4096 }, /less than `maxTokens` \(4096\)/],
    ];
    let requests = 0;
    const fetch = (async () => {
      requests++;
      throw new Error('no request expected');
    }) as typeof globalThis.fetch;
    for (const [options, message] of refused) {
      expect(() => createMemoryAgent({ tool, apiKey: 'k', fetch, ...options }), message.source).toThrow(message);
    }
    expect(requests).toBe(0);
    expect(() => createMemoryAgent({ tool, apiKey: 'k', thinking: { type: 'enabled', budget_tokens: 2048 }, clearThinking: true })).not.toThrow();
    // The edges the API takes pass: its minimum trigger, every form of each nested field.
    const taken: Array<Partial<MemoryAgentOptions>> = [
      { compaction: { trigger: { type: 'input_tokens', value: 50_000 }, pauseAfterCompaction: true } },
      { contextManagement: { trigger: { type: 'tool_uses', value: 10 }, keep: { type: 'tool_uses', value: 0 }, clear_at_least: { type: 'input_tokens', value: 0 } } },
      { clearThinking: { keep: 'all' } },
      { clearThinking: { keep: { type: 'all' } } },
      { clearThinking: { keep: { type: 'thinking_turns', value: 1 } } },
      { stream: false },
    ];
    for (const options of taken) expect(() => createMemoryAgent({ tool, apiKey: 'k', fetch, ...options }), JSON.stringify(options)).not.toThrow();
  });

  it('tells a subscriber what the API cleared: tool uses, thinking turns and tokens, from applied_edits', async () => {
    const { agent, events } = scriptedAgent({ tool, contextManagement: { exclude_tools: ['memory'] }, clearThinking: true }, [
      {
        text: 'Looking.',
        toolUses: [{ input: { command: 'view', path: '/memories' } }],
        appliedEdits: [
          { type: 'clear_thinking_20251015', cleared_thinking_turns: 2, cleared_input_tokens: 1_500 },
          { type: 'clear_tool_uses_20250919', cleared_tool_uses: 3, cleared_input_tokens: 12_000 },
        ],
      },
      { text: 'Done.' },
    ]);
    const seen: MemoryAgentEvent[] = [];
    agent.subscribe((event) => seen.push(event));
    await agent.send('look');

    const cleared = eventsOf(seen, 'context_cleared');
    expect(cleared).toEqual([
      {
        type: 'context_cleared',
        toolUses: 3,
        thinkingTurns: 2,
        tokens: 13_500,
        edits: [
          { type: 'clear_thinking_20251015', cleared_thinking_turns: 2, cleared_input_tokens: 1_500 },
          { type: 'clear_tool_uses_20250919', cleared_tool_uses: 3, cleared_input_tokens: 12_000 },
        ],
      },
    ]);
    expect(eventsOf(events, 'context_cleared')).toEqual(cleared);
    // Told once the reply is whole, before its usage and the results of its calls.
    const order = seen.map((event) => event.type);
    expect(order.indexOf('context_cleared')).toBeLessThan(order.indexOf('usage'));
    expect(order.indexOf('usage')).toBeLessThan(order.indexOf('tool_result'));
  });
});
