// `compact()`: the SDK runner's own `compactBeforeNextTurn()`, run now while idle (a turn in progress schedules it on
// its runner, in turn.ts), and the history's form of a reply (README.md, "Compaction").

import type {
  BetaAssistantMessageParam,
  BetaCompactionConfig,
  BetaMessage,
  BetaMessageParam,
} from '../core/sdk-types.js';
import { COMPACT_NOW_BETA, betasFor } from './context-edits.js';
import { clone, summaryOf } from './conversation.js';
import { MemoryAgentError, describeAgentError } from './errors.js';
import type { Compaction } from './events.js';
import { replyOf } from './reply.js';
import type { TurnScope } from './turn.js';
import { addUsage } from './usage.js';

/** What `compact()` takes: the API's `compaction` parameter without its `type`. */
export interface CompactOptions {
  /** Replaces the API's instructions for writing the summary, for this compaction. */
  instructions?: string | undefined;
}

/** The `compaction` config of `options`; throws a TypeError for an unknown key. */
export function compactionConfig(options: CompactOptions): BetaCompactionConfig {
  const unknown = Object.keys(options).filter((key) => key !== 'instructions');
  if (unknown.length > 0) {
    throw new TypeError(`compact() has unknown options: ${unknown.join(', ')} (known: instructions).`);
  }
  if (options.instructions !== undefined && typeof options.instructions !== 'string') {
    throw new TypeError('compact(): `instructions` must be a string.');
  }
  return { type: 'summarize', ...(options.instructions !== undefined ? { instructions: options.instructions } : {}) };
}

/** A compaction as the page is told of it: who asked, the summary and its size, and what it stands for. */
export function compactionOf(trigger: Compaction['trigger'], summary: string, replacedMessages: number): Compaction {
  return { trigger, summary, summaryChars: summary.length, replacedMessages };
}

/** `message` as the history keeps it: its blocks exactly as they came, a compaction's signature and all. */
export function asParam(message: Pick<BetaMessage, 'content'>): BetaMessageParam {
  return { role: 'assistant', content: clone(message.content) as BetaAssistantMessageParam['content'] };
}

/**
 * Summarizes the whole conversation now, through the SDK runner's `compactBeforeNextTurn()`. The history becomes the
 * compaction alone; a failed compaction (no summary) leaves it as it was and resolves to null.
 */
export async function runCompaction(
  scope: TurnScope,
  config: BetaCompactionConfig,
  signal: AbortSignal,
): Promise<Compaction | null> {
  const before = scope.history;
  const betas = [...new Set([...betasFor(scope.request.edits, before), COMPACT_NOW_BETA])];
  const { params, stream } = scope.request;
  const runner = scope.client.beta.messages.toolRunner(
    { ...params, betas, messages: before, stream, thread: false },
    { signal },
  );
  runner.compactBeforeNextTurn(config);
  let compaction: Compaction | undefined;
  try {
    for await (const item of runner) {
      const message = await replyOf(item);
      const summary = summaryOf(message);
      compaction = summary === undefined ? undefined : compactionOf('request', summary, before.length);
      if (compaction) {
        scope.history = [asParam(message)];
        scope.emit({ type: 'compacted', ...compaction });
      }
      addUsage(scope.usage, message.usage);
      scope.emit({ type: 'usage', usage: message.usage, total: { ...scope.usage } });
      // The runner would go on to a reply of Claude's to the summary alone: compact() is the summary only.
      break;
    }
    if (signal.aborted) throw signal.reason;
    return compaction ?? null;
  } catch (error) {
    scope.history = before;
    const description = describeAgentError(signal.aborted ? signal.reason : error);
    scope.emit({ type: 'error', error: description });
    throw new MemoryAgentError(description, { cause: error });
  }
}
