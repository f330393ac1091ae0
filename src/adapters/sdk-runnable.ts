// memoryTool(): the runnable tool `toolRunner` takes; unlike the SDK's betaMemoryTool, it checks the raw input first.

import type { BetaMemoryTool20250818 } from '../core/sdk-types.js';
import type { MemoryCommand } from '../core/command-input.js';
import type { MemoryCommandRunner, MemoryRunContext } from './command-runner.js';
import { parseMemoryCommand } from '../core/command-input.js';

export type { MemoryCommandRunner, MemoryRunContext };

/** Extra properties of the tool definition sent to the API, e.g. `cache_control`. */
export type MemoryToolExtraProps = Omit<BetaMemoryTool20250818, 'type' | 'name'>;

/** `memoryTool`'s second argument: the definition's extra properties, and `source`, which is not sent. */
export type MemoryToolOptions = MemoryToolExtraProps & {
  /** Where the writes come from (e.g. a conversation id), kept in their history entries; a function is read per call. */
  source?: string | (() => string | undefined) | undefined;
};

/**
 * What `toolRunner` takes: the SDK's `BetaRunnableTool` for the memory tool, declared from the SDK's public types
 * only (its own lives on an internal path).
 */
export type MemoryRunnableTool = MemoryToolExtraProps & {
  /** The tool type the API knows: Claude's memory tool. */
  type: 'memory_20250818';
  /** The tool's name, fixed by the API for this type. */
  name: 'memory';
  /** Checks Claude's raw input; throws naming the bad field, which the runner tells Claude. */
  parse(input: unknown): MemoryCommand;
  /** Runs a parsed command and resolves to the reply; the runner's `signal` withdraws an open `approve` question. */
  run(command: MemoryCommand, context?: { signal?: AbortSignal | null | undefined }): Promise<string>;
};

/**
 * The memory tool for `toolRunner`, backed by `tool`.
 *
 * @example
 * const runner = client.beta.messages.toolRunner({ model, max_tokens: 2048, messages, tools: [memoryTool(tool)] });
 */
export function memoryTool(
  tool: MemoryCommandRunner,
  options?: MemoryToolOptions,
): MemoryRunnableTool {
  const { source, ...extraProps } = options ?? {};
  return {
    ...extraProps,
    type: 'memory_20250818',
    name: 'memory',
    parse: parseMemoryCommand,
    // The runner's signal (its own, or the turn's in createMemoryAgent) withdraws an open approval question.
    run: (command, context) => {
      const from = typeof source === 'function' ? source() : source;
      const run: MemoryRunContext = {
        ...(from === undefined ? {} : { source: from }),
        ...(context?.signal ? { signal: context.signal } : {}),
      };
      return from === undefined && !context?.signal ? tool.execute(command) : tool.execute(command, run);
    },
  };
}
