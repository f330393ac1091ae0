// memoryToolResult(): the `tool_result` block the SDK's toolRunner would send for a memory `tool_use`, for any loop.
// Its types are declared here, not taken from the SDK, so that it works where the SDK is not installed.

import { parseMemoryCommand } from '../core/command-input.js';
import { ERROR_PREFIX } from '../core/replies.js';
import type { MemoryCommandRunner, MemoryRunContext } from './command-runner.js';

/** The fields of a `tool_use` block Claude sent that the answer needs; the SDK's `BetaToolUseBlock` is one. */
export interface MemoryToolUse {
  /** The `tool_use` block's id, echoed as the result's `tool_use_id`. */
  id: string;
  /** The tool Claude called; anything but `memory` is answered with an error and nothing runs. */
  name: string;
  /** The command as Claude sent it, checked before it runs. */
  input: unknown;
}

/** A `tool_result` block as the SDK's toolRunner sends it: `is_error` only on an error. */
export interface MemoryToolResultBlock {
  /** The block's kind. */
  type: 'tool_result';
  /** The id of the `tool_use` block this answers. */
  tool_use_id: string;
  /** The reply Claude reads, or the refusal (`Error: …`). */
  content: string;
  /** Set only when the command was refused. */
  is_error?: true;
}

/**
 * Runs `toolUse` on `tool` and resolves to the `tool_result` block that answers it, exactly as
 * `client.beta.messages.toolRunner` with `memoryTool(tool)` would; it never rejects.
 *
 * @example
 * const uses = message.content.filter((block) => block.type === 'tool_use');
 * messages.push({ role: 'user', content: await Promise.all(uses.map((use) => memoryToolResult(tool, use))) });
 */
export async function memoryToolResult(
  tool: MemoryCommandRunner,
  toolUse: MemoryToolUse,
  context?: MemoryRunContext,
): Promise<MemoryToolResultBlock> {
  const tool_use_id = toolUse.id;
  // The runner answers a name it has no tool for with this error, and runs nothing.
  if (toolUse.name !== 'memory') {
    const content = `${ERROR_PREFIX}Tool '${toolUse.name}' not found`;
    return { type: 'tool_result', tool_use_id, content, is_error: true };
  }
  try {
    const command = parseMemoryCommand(toolUse.input);
    const reply = await (context ? tool.execute(command, context) : tool.execute(command));
    return { type: 'tool_result', tool_use_id, content: reply };
  } catch (error) {
    // As the runner words anything its tool throws: the message of an Error, else the value as a string.
    const message = error instanceof Error ? error.message : String(error);
    return { type: 'tool_result', tool_use_id, content: ERROR_PREFIX + message, is_error: true };
  }
}
