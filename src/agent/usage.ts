// The agent's token totals, added up from the `usage` of each message Claude sends.

import type { BetaUsage } from '../core/sdk-types.js';

/** Totals over the agent's life. Input read from or written to the prompt cache is counted apart, as the API does. */
export interface AgentUsageTotals {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

export function emptyUsage(): AgentUsageTotals {
  return { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
}

/** Adds one message's `usage` to `total`, in place. */
export function addUsage(total: AgentUsageTotals, usage: BetaUsage): void {
  total.input_tokens += usage.input_tokens;
  total.output_tokens += usage.output_tokens;
  total.cache_read_input_tokens += usage.cache_read_input_tokens ?? 0;
  total.cache_creation_input_tokens += usage.cache_creation_input_tokens ?? 0;
}
