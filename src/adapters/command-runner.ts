// MemoryCommandRunner: the one thing every adapter needs of the tool. Declared with no SDK type, so that the adapters
// that take it (tool-result.ts, ai-sdk.ts) need no SDK installed.

import type { MemoryCommand } from '../core/command-input.js';

/** Anything that runs a validated memory command and answers its reply, such as an {@link IndexedDBMemoryTool}. */
export interface MemoryCommandRunner {
  /** Runs `command` and resolves to the reply Claude reads; rejects with a `MemoryToolError` when refused. */
  execute(command: MemoryCommand, options?: MemoryRunContext): Promise<string>;
}

/** What an adapter passes with a command: where it comes from, and the signal of the turn that asked for it. */
export interface MemoryRunContext {
  /** Recorded in the command's history entry (e.g. a conversation id); `approve` is shown it. */
  source?: string | undefined;
  /** Aborted when the turn stops: withdraws a question `approve` still has open. */
  signal?: AbortSignal | undefined;
}
