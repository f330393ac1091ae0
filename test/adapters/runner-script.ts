// The yardstick of the adapter tests: a scripted conversation in which Claude sends memory commands that succeed and
// fail, and the tool_result blocks the Anthropic SDK's toolRunner with memoryTool(tool) sends for it, as sent.

import Anthropic from '@anthropic-ai/sdk';
import type { MemoryCommandRunner } from '../../src/adapters/sdk-runnable.js';
import { memoryTool } from '../../src/adapters/sdk-runnable.js';
import { createScriptedClaude } from '../../src/offline/scripted-claude.js';
import type { ScriptedClaude, ScriptedStep } from '../../src/offline/scripted-claude.js';

/** A `tool_use` Claude sends: its id is set here, so that every run of the script names it alike. */
export interface ScriptedUse {
  id: string;
  name: string;
  input: unknown;
}

const turn = (n: number, ...uses: Array<{ input: unknown; name?: string }>): ScriptedUse[] =>
  uses.map(({ input, name = 'memory' }, i) => ({ id: `toolu_t${n}_${i}`, name, input }));

/**
 * Each turn's calls, sent at once; every kind of refusal Claude can get is in it at least once. No call depends on
 * another of its turn, so the loops' order of running them within a turn does not matter.
 */
export const SCRIPT: ScriptedUse[][] = [
  turn(
    1,
    { input: { command: 'create', path: '/memories/notes/todo.md', file_text: '# Todo\n- ship it\n' } },
    { input: { command: 'create', path: '/memories/b.md', file_text: 'one\ntwo\n' } },
  ),
  turn(
    2,
    { input: { command: 'view', path: '/memories/missing.md' } }, // a missing file
    { input: { command: 'view', path: '/etc/passwd' } }, // a bad path
    { input: { command: 'create', path: '/memories/../escape.md', file_text: 'x' } }, // a bad path, climbing out
    { input: { command: 'create', path: '/memories/a.md' } }, // invalid input: no file_text
  ),
  turn(
    3,
    { input: { command: 'str_replace', path: '/memories/notes/todo.md', old_str: 'ship it', new_str: 'shipped' } },
    { input: { command: 'str_replace', path: '/memories/b.md', old_str: 'nowhere', new_str: 'x' } },
    { input: { command: 'insert', path: '/memories/b.md', insert_line: 99, insert_text: 'late\n' } },
    { input: { command: 'view', path: '/memories/b.md', view_range: [1] } }, // invalid input
    { input: { command: 'list', path: '/memories' } }, // an unknown command
  ),
  turn(
    4,
    { input: { command: 'rename', old_path: '/memories/notes', new_path: '/memories/done' } },
    { input: { command: 'delete', path: '/memories' } },
    { input: 'view /memories' }, // not an object at all
  ),
  turn(
    5,
    { input: { command: 'view', path: '/memories' } },
    { input: { command: 'view', path: '/memories/done/todo.md' } },
  ),
];

/** The ids of the script's calls that are refused, in order. */
export const REFUSED = ['t2_0', 't2_1', 't2_2', 't2_3', 't3_1', 't3_2', 't3_3', 't3_4', 't4_1', 't4_2'].map(
  (id) => `toolu_${id}`,
);

/** A call to a tool the runner does not have: only `memoryToolResult` is held to it (the AI SDK words it its way). */
export const OTHER_TOOL_TURN: ScriptedUse[] = turn(6, { name: 'web_search', input: { query: 'x' } });

/** The script as the scripted Claude's steps, then a last text turn. */
export function scriptedSteps(turns: ScriptedUse[][]): ScriptedStep[] {
  return [...turns.map((uses, i) => ({ text: `Step ${i + 1}.`, toolUses: uses })), { text: 'Done.' }];
}

/** Every `tool_result` block Claude received, whole and as sent (each id once, though requests resend history). */
export function sentToolResults(claude: ScriptedClaude): Array<Record<string, unknown>> {
  const seen = new Map<unknown, Record<string, unknown>>();
  for (const request of claude.requests) {
    for (const message of request.messages ?? []) {
      if (!Array.isArray(message.content)) continue;
      for (const block of message.content as unknown as Array<Record<string, unknown>>) {
        if (block.type === 'tool_result' && !seen.has(block.tool_use_id)) seen.set(block.tool_use_id, block);
      }
    }
  }
  return [...seen.values()];
}

/** Runs `turns` through the real `client.beta.messages.toolRunner` with `memoryTool(tool)`; the blocks it sent. */
export async function runnerToolResults(
  tool: MemoryCommandRunner,
  turns: ScriptedUse[][],
  stream = false,
): Promise<Array<Record<string, unknown>>> {
  const claude = createScriptedClaude(scriptedSteps(turns));
  const client = new Anthropic({ apiKey: 'k', fetch: claude.fetch, maxRetries: 0, dangerouslyAllowBrowser: true });
  await client.beta.messages
    .toolRunner({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'Keep my todo list.' }],
      tools: [memoryTool(tool)],
      stream,
    })
    .runUntilDone();
  return sentToolResults(claude);
}
