// memoryTool() under the real SDK runner: its definition, and that malformed calls Claude might send reach
// Claude as clear errors, where the SDK's betaMemoryTool would dispatch them blindly.

import Anthropic from '@anthropic-ai/sdk';
import { betaMemoryTool } from '@anthropic-ai/sdk/helpers/beta/memory';
import { beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import { IndexedDBMemoryTool } from '../../src/index.js';
import { memoryTool } from '../../src/entries/sdk.js';
import { DEFAULT_AGENT_MODEL } from '../../src/entries/agent.js';
import type { MemoryCommand } from '../../src/index.js';
import type { MemoryRunnableTool } from '../../src/entries/sdk.js';
import { createScriptedClaude } from '../../src/offline/scripted-claude.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';

let tool: IndexedDBMemoryTool;
const open = toolsClosedAfterEach('runnable');
beforeEach(async () => {
  tool = await open();
});

async function results(inputs: unknown[], runnable: MemoryRunnableTool | ReturnType<typeof betaMemoryTool> = memoryTool(tool)) {
  const claude = createScriptedClaude([{ toolUses: inputs.map((input) => ({ input })) }, { text: 'ok' }]);
  const client = new Anthropic({ apiKey: 'k', fetch: claude.fetch, maxRetries: 0, dangerouslyAllowBrowser: true });
  await client.beta.messages
    .toolRunner({ model: DEFAULT_AGENT_MODEL, max_tokens: 100, messages: [{ role: 'user', content: 'hi' }], tools: [runnable] })
    .runUntilDone();
  return { claude, results: claude.toolResults() };
}

describe('the types, declared without the SDK', () => {
  // Checked by the compiler (`npm run typecheck`, run by CI): the tool's own declarations are the SDK's exactly.
  it('are the SDK\'s memory commands, handlers and runnable tool', () => {
    expectTypeOf<MemoryCommand>().toEqualTypeOf<Anthropic.Beta.BetaMemoryTool20250818Command>();
    expectTypeOf<IndexedDBMemoryTool>().toExtend<Parameters<typeof betaMemoryTool>[0]>();
    expectTypeOf<MemoryRunnableTool>().toExtend<ReturnType<typeof betaMemoryTool>>();
  });
});

describe('memoryTool', () => {
  it('declares the memory_20250818 tool with extra props such as cache_control', async () => {
    const runnable = memoryTool(tool, { cache_control: { type: 'ephemeral' } });
    expect(runnable).toMatchObject({ type: 'memory_20250818', name: 'memory', cache_control: { type: 'ephemeral' } });
    const { claude } = await results([{ command: 'view', path: '/memories' }], runnable);
    expect(claude.requests[0]?.tools).toEqual([{ type: 'memory_20250818', name: 'memory', cache_control: { type: 'ephemeral' } }]);
  });

  it('answers every call of a turn, in order, with the exact tool_result', async () => {
    const { results: got } = await results([
      { command: 'create', path: '/memories/a.md', file_text: 'x' },
      { command: 'view', path: '/memories/missing' },
    ]);
    expect(got.map(({ content, is_error }) => ({ content, is_error }))).toEqual([
      { content: 'File created successfully at: /memories/a.md', is_error: undefined },
      { content: 'Error: The path /memories/missing does not exist. Please provide a valid path.', is_error: true },
    ]);
  });

  it('refuses prototype names and unknown commands that the SDK helper would try to call', async () => {
    const inputs = [{ command: 'constructor' }, { command: 'toString' }, { command: '__proto__' }, { command: 'list', path: '/memories' }];
    const { results: ours } = await results(inputs);
    for (const result of ours) {
      expect(result.is_error).toBe(true);
      expect(result.content).toMatch(/^Error: Invalid input for the memory tool: "command" must be one of view, create, str_replace, insert, delete, rename, got "/);
    }
    // The SDK's own helper dispatches `constructor` to Object's constructor and `toString` to the class's. Each
    // engine words the TypeError its own way: V8 "Class constructor K cannot be invoked without 'new'", Firefox
    // "class constructors must be invoked with 'new'", JavaScriptCore "Cannot call a class constructor without |new|".
    const { results: sdk } = await results(inputs.slice(0, 2), betaMemoryTool(tool));
    expect(sdk[0]).toMatchObject({ is_error: true });
    expect(sdk[0]?.content).toMatch(/^Error: .*\bclass constructors?\b.*\bnew\b/i);
    expect(sdk[1]).toMatchObject({ content: '[object Object]' });
  });

  it('names the missing or mistyped field without undefined, stacks or internal names', async () => {
    const { results: got } = await results([
      { command: 'create', path: '/memories/a.md' },
      { command: 'insert', path: '/memories/a.md', insert_line: '2', insert_text: 'x' },
      { command: 'rename', old_path: 5, new_path: '/memories/b' },
    ]);
    expect(got.map((r) => r.content)).toEqual([
      'Error: Invalid input for the memory tool: create needs "file_text" (a string), and it is missing.',
      'Error: Invalid input for the memory tool: "insert_line" of insert must be an integer, got "2".',
      'Error: Invalid input for the memory tool: "old_path" of rename must be a string, got 5.',
    ]);
  });
});
