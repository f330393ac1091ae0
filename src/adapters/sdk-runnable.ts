// memoryTool(): the runnable tool `toolRunner` takes; unlike the SDK's betaMemoryTool, it checks the raw input first.

import type { BetaMemoryTool20250818 } from '../core/sdk-types.js';
import type { MemoryCommand } from '../core/command-input.js';
import type { MemoryCommandRunner } from './command-runner.js';
import { parseMemoryCommand } from '../core/command-input.js';

export type { MemoryCommandRunner };

/** Extra properties of the tool definition sent to the API, e.g. `cache_control`. */
export type MemoryToolExtraProps = Omit<BetaMemoryTool20250818, 'type' | 'name'>;

/**
 * What `toolRunner` takes: the SDK's `BetaRunnableTool` for the memory tool, declared from the SDK's public types
 * only (its own lives on an internal path).
 */
export type MemoryRunnableTool = MemoryToolExtraProps & {
  type: 'memory_20250818';
  name: 'memory';
  parse(input: unknown): MemoryCommand;
  run(command: MemoryCommand): Promise<string>;
};

/**
 * The memory tool for `toolRunner`, backed by `tool`.
 *
 * @example
 * const runner = client.beta.messages.toolRunner({ model, max_tokens: 2048, messages, tools: [memoryTool(tool)] });
 */
export function memoryTool(
  tool: MemoryCommandRunner,
  extraProps?: MemoryToolExtraProps,
): MemoryRunnableTool {
  return {
    ...extraProps,
    type: 'memory_20250818',
    name: 'memory',
    parse: parseMemoryCommand,
    run: (command) => tool.execute(command),
  };
}
