// aiSdkMemoryTool() in the Vercel AI SDK: a scripted conversation through generateText and streamText with
// @ai-sdk/anthropic, and the tool_result blocks Claude receives must be the Anthropic SDK runner's, to the byte.

import { anthropic as defaultProvider, createAnthropic } from '@ai-sdk/anthropic';
import { generateText, stepCountIs, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { aiSdkMemoryTool } from '../../src/adapters/ai-sdk.js';
import type { MemoryToolResultBlock } from '../../src/adapters/tool-result.js';
import { createScriptedClaude } from '../../src/offline/scripted-claude.js';
import type { IndexedDBMemoryTool } from '../../src/tool/tool.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { REFUSED, SCRIPT, runnerToolResults, scriptedSteps, sentToolResults } from './runner-script.js';

const open = toolsClosedAfterEach('ai-sdk');
const asSent = (blocks: readonly object[]): string[] => blocks.map((block) => JSON.stringify(block));
/** Each block as sent, by its `tool_use_id`. */
const byId = (blocks: ReadonlyArray<{ tool_use_id?: unknown }>): Map<unknown, string> =>
  new Map(blocks.map((block) => [block.tool_use_id, JSON.stringify(block)]));

/** Runs the script through `generateText` or `streamText` on `tool`; what Claude received, and the call outputs. */
async function throughAiSdk(mode: 'generateText' | 'streamText', tool: IndexedDBMemoryTool) {
  const claude = createScriptedClaude(scriptedSteps(SCRIPT));
  const settings = {
    model: createAnthropic({ apiKey: 'offline', fetch: claude.fetch })('claude-sonnet-4-5'),
    prompt: 'Keep my todo list.',
    tools: { memory: aiSdkMemoryTool(tool) },
    stopWhen: stepCountIs(SCRIPT.length + 1),
    maxRetries: 0,
  };
  let steps;
  let text;
  if (mode === 'generateText') {
    ({ steps, text } = await generateText(settings));
  } else {
    const errors: unknown[] = [];
    const result = streamText({ ...settings, onError: ({ error }) => void errors.push(error) });
    [steps, text] = await Promise.all([result.steps, result.text]);
    expect(errors).toEqual([]);
  }
  const outputs = steps.flatMap((step) => step.toolResults.map((result) => result.output as MemoryToolResultBlock));
  return { claude, received: sentToolResults(claude), outputs, text };
}

describe('aiSdkMemoryTool', () => {
  for (const mode of ['generateText', 'streamText'] as const) {
    it(`${mode}: Claude receives the runner's tool_result for every call, byte for byte, errors flagged`, async () => {
      const runner = await runnerToolResults(await open(), SCRIPT, mode === 'streamText');
      const tool = await open();
      const { claude, received, outputs, text } = await throughAiSdk(mode, tool);

      expect(text).toBe('Done.');
      expect(runner).toHaveLength(SCRIPT.flat().length);
      expect(byId(received)).toEqual(byId(runner));
      // streamText sends a turn's results in the order they finish (a refused input first); generateText in call order.
      if (mode === 'generateText') expect(asSent(received)).toEqual(asSent(runner));
      expect(received.filter((block) => block.is_error).map((block) => block.tool_use_id).sort()).toEqual(REFUSED);
      // Each call's output is that same block, for an app that shows the calls.
      expect(byId(outputs)).toEqual(byId(runner));
      // The tool Claude is offered is the runner's memory tool.
      expect(claude.requests[0]?.tools).toEqual([{ type: 'memory_20250818', name: 'memory' }]);
      expect(await tool.read('/memories/done/todo.md')).toBe('# Todo\n- shipped\n');
    });
  }

  it('is the tool anthropic.tools.memory_20250818() makes, by type, id, args and who runs it', async () => {
    const ours = aiSdkMemoryTool(await open());
    const providers = defaultProvider.tools.memory_20250818({});
    const run = (made: object): unknown => ('isProviderExecuted' in made ? made.isProviderExecuted : undefined);
    expect({ type: ours.type, id: 'id' in ours && ours.id, args: 'args' in ours && ours.args }).toEqual({
      type: providers.type,
      id: 'id' in providers && providers.id,
      args: 'args' in providers && providers.args,
    });
    // `ai` 7 needs the flag on a tool the app runs; `ai` 6's provider sets none, and reads it as unset.
    expect(run(ours)).toBe(false);
    expect(run(providers) ?? false).toBe(false);
  });

  it('hands a malformed call to the tool, which refuses it in its own words', async () => {
    const tool: IndexedDBMemoryTool = await open();
    // `context` is the app's own per-call value in `ai` 7 (6 has none).
    const call = { toolCallId: 'toolu_1', messages: [], context: {} };
    const output = await aiSdkMemoryTool(tool).execute?.({ command: 'view' }, call);
    expect(output).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: 'Error: Invalid input for the memory tool: view needs "path" (a string), and it is missing.',
      is_error: true,
    });
  });
});
