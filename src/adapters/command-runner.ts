// MemoryCommandRunner: the one thing every adapter needs of the tool. Declared with no SDK type, so that the adapters
// that take it (tool-result.ts, ai-sdk.ts) need no SDK installed.

import type { MemoryCommand } from '../core/command-input.js';

/** Anything that runs a validated memory command and answers its reply, such as an {@link IndexedDBMemoryTool}. */
export interface MemoryCommandRunner {
  execute(command: MemoryCommand): Promise<string>;
}
