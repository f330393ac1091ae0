// The agent's options as an app with `exactOptionalPropertyTypes` passes them: an explicit `undefined` in any
// optional field, the context edits' fields included, taken by the types and sent as if left out.

import { describe, expect, expectTypeOf, it } from 'vitest';
import type { MemoryAgentOptions, SendOptions } from '../../src/entries/agent.js';
import type { MemoryCommandRunner } from '../../src/index.js';
import { requestSettings } from '../../src/agent/options.js';

const tool: MemoryCommandRunner = { execute: async () => '' };

describe('the agent options', () => {
  it('take an explicit undefined in every optional field, the context edits\' too', () => {
    expectTypeOf<{
      tool: MemoryCommandRunner;
      apiKey: undefined;
      baseURL: string;
      client: undefined;
      fetch: undefined;
      maxRetries: undefined;
      model: undefined;
      system: undefined;
      search: undefined;
      maxTokens: undefined;
      maxIterations: undefined;
      thinking: undefined;
      contextManagement: { keep: undefined; trigger: undefined; exclude_tools: undefined };
      clearThinking: { keep: undefined };
      compaction: { trigger: undefined; instructions: undefined; pauseAfterCompaction: undefined };
      stream: undefined;
      messages: undefined;
      conversationId: undefined;
      onEvent: undefined;
    }>().toExtend<MemoryAgentOptions>();
    expectTypeOf<{ signal: undefined }>().toExtend<SendOptions>();
  });

  it('send a field given as undefined as if it were left out', () => {
    const settings = requestSettings({
      tool,
      baseURL: 'https://proxy.example',
      model: undefined,
      maxTokens: undefined,
      maxIterations: undefined,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      clearThinking: { keep: undefined },
      contextManagement: { keep: undefined, trigger: undefined },
      compaction: { trigger: undefined, instructions: undefined },
      stream: undefined,
    });
    // toStrictEqual tells a key set to undefined from a key left out: none may reach the request.
    expect(settings.params.context_management).toStrictEqual({
      edits: [{ type: 'clear_thinking_20251015' }, { type: 'clear_tool_uses_20250919' }, { type: 'compact_20260112' }],
    });
    expect(settings.params.max_tokens).toBe(4096);
    expect(settings.params.max_iterations).toBe(20);
    expect(settings.stream).toBe(true);
  });
});
