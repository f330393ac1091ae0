// What a `send()` tells a page as it goes, and the set of listeners that hear it.

import type {
  BetaContextManagementResponse,
  BetaStopReason,
  BetaToolResultBlockParam,
  BetaUsage,
} from '../core/sdk-types.js';
import type { AgentErrorDescription } from './errors.js';
import type { AgentUsageTotals } from './usage.js';
import { callEach } from '../core/listeners.js';

/**
 * What happens during a `send()`, in this order: `turn_start`; per request `compacted` as the summary comes (first in
 * the reply), `text` and `tool_call` as they stream, then `context_cleared` if the API cleared any, `usage`, a
 * `tool_result` per call that ran; then `error` (if it failed) and `turn_end`, once the agent is idle. `compact()`
 * while idle sends `compacted` and `usage` alone.
 */
export type MemoryAgentEvent =
  | { type: 'turn_start'; text: string }
  | { type: 'text'; delta: string }
  | { type: 'tool_call'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content: BetaToolResultBlockParam['content']; is_error: boolean }
  | ({ type: 'compacted' } & Compaction)
  | {
      type: 'context_cleared';
      /** Old tool uses the API cleared from this request (`clear_tool_uses_20250919`). */
      toolUses: number;
      /** Turns whose thinking it cleared (`clear_thinking_20251015`). */
      thinkingTurns: number;
      /** Input tokens cleared, all edits together. */
      tokens: number;
      edits: BetaContextManagementResponse['applied_edits'];
    }
  | { type: 'usage'; usage: BetaUsage; total: AgentUsageTotals }
  | { type: 'error'; error: AgentErrorDescription }
  | { type: 'turn_end'; outcome: TurnOutcome; stopReason: BetaStopReason | null };

/** A compaction: the summary that stands, from now on, for the conversation before it. */
export interface Compaction {
  /** `auto`: the API compacted at its trigger (the `compaction` option); `request`: `compact()` asked for it. */
  trigger: 'auto' | 'request';
  /** The summary, as Claude reads it from now on. Its tokens come in the `usage` that follows (`compaction_*`). */
  summary: string;
  /** The summary's length in characters (UTF-16 code units, as `summary.length`): how much it is, at a glance. */
  summaryChars: number;
  /** How many messages of the history the summary replaced. */
  replacedMessages: number;
}

export type MemoryAgentListener = (event: MemoryAgentEvent) => void;

/** How a `send()` ended: Claude finished, the iteration cap cut it short, it was stopped, or it failed. */
export type TurnOutcome = 'done' | 'max_iterations' | 'aborted' | 'error';

export type TurnEnd = { outcome: TurnOutcome; stopReason: BetaStopReason | null };

export interface AgentListeners {
  emit(event: MemoryAgentEvent): void;
  subscribe(listener: MemoryAgentListener): () => void;
}

export function createListeners(first?: MemoryAgentListener): AgentListeners {
  const listeners = new Set<MemoryAgentListener>();
  if (first) listeners.add(first);
  return {
    emit(event) {
      callEach(listeners, event);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
