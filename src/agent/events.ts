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
  | {
      /** A turn began. */
      type: 'turn_start';
      /** The text the person sent. */
      text: string;
    }
  | {
      /** Claude's reply streamed a piece of text. */
      type: 'text';
      /** The new text, to append to what came before. */
      delta: string;
    }
  | {
      /** Claude called a tool; its `tool_result` follows once it ran. */
      type: 'tool_call';
      /** The `tool_use` block's id, which its `tool_result` names. */
      id: string;
      /** The tool called: `memory` or `memory_search`. */
      name: string;
      /** What Claude sent, unchecked. */
      input: unknown;
    }
  | {
      /** A tool call ran (or was refused) and its answer goes back to Claude. */
      type: 'tool_result';
      /** The `tool_call`'s `id`. */
      tool_use_id: string;
      /** What Claude reads: the reply, or the refusal. */
      content: BetaToolResultBlockParam['content'];
      /** `true` when the call was refused. */
      is_error: boolean;
    }
  | ({
      /** The conversation was summarized; see {@link Compaction}. */
      type: 'compacted';
    } & Compaction)
  | {
      /** The API cleared old context from this request (the `contextManagement` and `clearThinking` options). */
      type: 'context_cleared';
      /** Old tool uses the API cleared from this request (`clear_tool_uses_20250919`). */
      toolUses: number;
      /** Turns whose thinking it cleared (`clear_thinking_20251015`). */
      thinkingTurns: number;
      /** Input tokens cleared, all edits together. */
      tokens: number;
      /** The API's own report of each edit, as it sent it. */
      edits: BetaContextManagementResponse['applied_edits'];
    }
  | {
      /** A message of Claude's ended, with what it cost. */
      type: 'usage';
      /** This message's usage, as the API reported it. */
      usage: BetaUsage;
      /** The agent's totals so far, this message included. */
      total: AgentUsageTotals;
    }
  | {
      /** The turn failed; `send()` rejects with the same description. */
      type: 'error';
      /** What went wrong, in words for a person. */
      error: AgentErrorDescription;
    }
  | {
      /** The turn is over and the agent is idle: the last event of every `send()`. */
      type: 'turn_end';
      /** How it ended. */
      outcome: TurnOutcome;
      /** Claude's last `stop_reason`, or `null` when no message came. */
      stopReason: BetaStopReason | null;
    };

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

/** Hears each {@link MemoryAgentEvent}; it must not throw (a thrown error is dropped, and the turn goes on). */
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
