// memoryToolResult() against the real toolRunner: for each tool_use of a scripted conversation, the block it makes
// must be the one the runner sent with memoryTool(tool), to the byte, errors included.

import type { BetaToolResultBlockParam, BetaToolUseBlock } from '@anthropic-ai/sdk/resources/beta';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { memoryToolResult } from '../../src/adapters/tool-result.js';
import type { MemoryCommandRunner } from '../../src/adapters/command-runner.js';
import type { MemoryToolResultBlock, MemoryToolUse } from '../../src/adapters/tool-result.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { OTHER_TOOL_TURN, REFUSED, SCRIPT, runnerToolResults } from './runner-script.js';
import type { ScriptedUse } from './runner-script.js';

const open = toolsClosedAfterEach('tool-result');

/** Answers `turns` with memoryToolResult, each turn's calls at once, as a loop would. */
async function answered(tool: MemoryCommandRunner, turns: ScriptedUse[][]): Promise<MemoryToolResultBlock[]> {
  const blocks: MemoryToolResultBlock[] = [];
  for (const uses of turns) blocks.push(...(await Promise.all(uses.map((use) => memoryToolResult(tool, use)))));
  return blocks;
}

const asSent = (blocks: readonly object[]): string[] => blocks.map((block) => JSON.stringify(block));

describe('memoryToolResult', () => {
  it("makes, for every call of a conversation, the runner's block byte for byte, errors included", async () => {
    const turns = [...SCRIPT, OTHER_TOOL_TURN];
    const runner = await runnerToolResults(await open(), turns);
    const ours = await answered(await open(), turns);

    expect(runner).toHaveLength(turns.flat().length);
    expect(asSent(ours)).toEqual(asSent(runner));
    // Not vacuous: the script's refusals are errors, and the rest are not.
    const refused = ours.filter((block) => block.is_error).map((block) => block.tool_use_id);
    expect(refused).toEqual([...REFUSED, 'toolu_t6_0']);
    expect(ours.at(-1)).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_t6_0',
      content: "Error: Tool 'web_search' not found",
      is_error: true,
    });
  });

  it('answers as the runner does when the tool throws something other than a MemoryToolError', async () => {
    const throwing = (thrown: unknown): MemoryCommandRunner => ({
      execute: () => Promise.reject(thrown),
    });
    const use = [[{ id: 'toolu_x', name: 'memory', input: { command: 'view', path: '/memories' } }]];
    for (const thrown of [new TypeError('boom'), 'a string', 42, undefined]) {
      const runner = await runnerToolResults(throwing(thrown), use);
      expect(asSent(await answered(throwing(thrown), use))).toEqual(asSent(runner));
    }
  });

  it("takes the SDK's tool_use block and makes a block the SDK's messages take", () => {
    expectTypeOf<BetaToolUseBlock>().toExtend<MemoryToolUse>();
    expectTypeOf<MemoryToolResultBlock>().toExtend<BetaToolResultBlockParam>();
  });
});
