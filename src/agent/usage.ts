// The agent's token totals, added up from the `usage` of each message Claude sends.

import type { BetaCompactionIterationUsage, BetaUsage } from '../core/sdk-types.js';

/**
 * Totals over the agent's life. Input read from or written to the prompt cache is counted apart, as the API does, and
 * so are compactions: the API reports their tokens only in `usage.iterations`, never in the fields above them.
 */
export interface AgentUsageTotals {
  /** Input tokens read outside the prompt cache. */
  input_tokens: number;
  /** Tokens Claude wrote. */
  output_tokens: number;
  /** Input tokens read from the prompt cache. */
  cache_read_input_tokens: number;
  /** Input tokens written to the prompt cache. */
  cache_creation_input_tokens: number;
  /** Compactions the API ran (its `compaction` iterations). */
  compactions: number;
  /** Input the compactions read, the prompt cache's included. */
  compaction_input_tokens: number;
  /** What the compactions wrote: the summaries. */
  compaction_output_tokens: number;
}

export function emptyUsage(): AgentUsageTotals {
  return {
    input_tokens: 0,
    output_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 0,
    compactions: 0,
    compaction_input_tokens: 0,
    compaction_output_tokens: 0,
  };
}

/** Adds one message's `usage` to `total`, in place. */
export function addUsage(total: AgentUsageTotals, usage: BetaUsage): void {
  total.input_tokens += usage.input_tokens;
  total.output_tokens += usage.output_tokens;
  total.cache_read_input_tokens += usage.cache_read_input_tokens ?? 0;
  total.cache_creation_input_tokens += usage.cache_creation_input_tokens ?? 0;
  for (const iteration of compactionIterations(usage)) {
    total.compactions += 1;
    const { input_tokens, cache_read_input_tokens, cache_creation_input_tokens, output_tokens } = iteration;
    total.compaction_input_tokens +=
      count(input_tokens) + count(cache_read_input_tokens) + count(cache_creation_input_tokens);
    total.compaction_output_tokens += count(output_tokens);
  }
}

/** The `compaction` entries of `usage.iterations` (none when the API sent no iterations). */
export function compactionIterations(usage: BetaUsage): BetaCompactionIterationUsage[] {
  return (usage.iterations ?? []).flatMap((iteration) => (iteration.type === 'compaction' ? [iteration] : []));
}

/** A count off the wire, 0 when the API left it out. */
function count(value: unknown): number {
  return typeof value === 'number' ? value : 0;
}
