// Playing an Offline demo script: an agent on the scripted Claude, and its conversations one after the other, a new
// one each (the memory stays). The demo's chat panel and the tests play the scripts through these two.

import { createMemoryAgent } from '../../src/entries/agent.js';
import type { MemoryAgent, MemoryAgentListener, MemoryAgentOptions } from '../../src/entries/agent.js';
import { createScriptedClaude } from '../../src/entries/offline.js';
import type { OfflineScript } from './script.js';

/** An agent for `script`: the scripted Claude behind its `fetch`, the script's options, this memory. */
export function offlineAgent(
  script: OfflineScript,
  tool: MemoryAgentOptions['tool'],
  onEvent: MemoryAgentListener,
  delayMs = 0,
) {
  const claude = createScriptedClaude(script.turns(), { delayMs });
  // The script's own memory is written before Claude's first turn is asked for: its first request waits for it.
  const prepared = script.prepare?.(tool);
  prepared?.catch(() => undefined);
  const fetch: typeof claude.fetch = async (input, init) => {
    await prepared;
    return claude.fetch(input, init);
  };
  const agent = createMemoryAgent({
    tool,
    baseURL: 'https://scripted-claude.invalid',
    fetch,
    maxRetries: 0,
    onEvent,
    ...script.options,
  });
  return { agent, claude };
}

/**
 * Sends the script's conversations in order through `send` (false: it failed or was stopped, and the rest are not
 * played), with `reset()` and `between()` before each after the first.
 */
export async function playConversations(
  script: OfflineScript,
  agent: MemoryAgent,
  send: (text: string) => Promise<boolean>,
  between: () => void,
): Promise<boolean> {
  for (const [index, text] of script.conversations.entries()) {
    if (index > 0) {
      agent.reset();
      between();
    }
    if (!(await send(text))) return false;
  }
  return true;
}
