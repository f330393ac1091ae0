// The conversation a next request sends: the user's text added to it, the end of a turn made one the API accepts
// (cut-off tool calls answered, a failed turn cut back), and what a compaction replaces. The rules are in README.md,
// "The loop" and "Compaction".

import type { BetaMessage, BetaMessageParam, BetaToolResultBlockParam } from '../core/sdk-types.js';

const CUT_CALL =
  'Not run: the reply was cut off before this call was complete. Make the call again if it is still needed.';

/** The history with `text` as the next user turn; tool results left unanswered by an iteration cap share it. */
export function withUserText(history: BetaMessageParam[], text: string): BetaMessageParam[] {
  const last = history.at(-1);
  if (last?.role === 'user') {
    const content = typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content;
    return [...history.slice(0, -1), { role: 'user', content: [...content, { type: 'text', text }] }];
  }
  return [...history, { role: 'user', content: text }];
}

/**
 * The longest part of a failed turn's `messages` that a next request can continue, from its last compaction on;
 * else the history `before` it.
 */
export function resumable(messages: BetaMessageParam[], before: BetaMessageParam[]): BetaMessageParam[] {
  // Never `before.length` messages or fewer: the turn's text may be merged into the last of them (withUserText).
  // A summary made in this turn stands for all that came before it, so from there on any end will do.
  const at = lastCompactionAt(messages);
  const summarized = at >= 0 && !before.some((message) => sameMessage(message, messages[at]));
  for (let end = messages.length; end > (summarized ? at : before.length); end--) {
    const last = messages[end - 1];
    if (last && isResumableEnd(last)) return fromLastCompaction(clone(messages.slice(0, end)));
  }
  return clone(before);
}

/** Where the last compaction with a summary is in `messages`, or -1. */
export function lastCompactionAt(messages: BetaMessageParam[]): number {
  for (let at = messages.length - 1; at >= 0; at--) {
    const message = messages[at];
    if (message && summaryOf(message) !== undefined) return at;
  }
  return -1;
}

/** `messages` from its last compaction on: the summary replaces all before it, and the API takes only one. */
export function fromLastCompaction(messages: BetaMessageParam[]): BetaMessageParam[] {
  const at = lastCompactionAt(messages);
  return at > 0 ? messages.slice(at) : messages;
}

/** The summary of a compaction in `message`; none for a failed one (`content: null`), which the API ignores. */
export function summaryOf(message: BetaMessageParam | BetaMessage): string | undefined {
  if (message.role !== 'assistant' || typeof message.content === 'string') return undefined;
  for (const block of message.content) {
    if (block.type === 'compaction' && typeof block.content === 'string' && block.content !== '') return block.content;
  }
  return undefined;
}

/** `messages` with an error result for each tool call of the last reply that no result answers. */
export function answerCutCalls(messages: BetaMessageParam[]): BetaMessageParam[] {
  const last = messages.at(-1);
  if (last?.role !== 'assistant' || typeof last.content === 'string') return messages;
  const results: BetaToolResultBlockParam[] = last.content.flatMap((block) =>
    block.type === 'tool_use'
      ? [{ type: 'tool_result' as const, tool_use_id: block.id, is_error: true, content: CUT_CALL }]
      : [],
  );
  return results.length === 0 ? messages : [...messages, { role: 'user', content: results }];
}

/** Claude's finished text, or a user message with tool results: what a next request can follow. */
function isResumableEnd(message: BetaMessageParam): boolean {
  if (message.role === 'system' || message.content === undefined) return false;
  if (typeof message.content === 'string') return message.role === 'assistant' && message.content !== '';
  if (message.role === 'user') return message.content.some((block) => block.type === 'tool_result');
  return (
    message.content.length > 0 &&
    !message.content.some((block) => block.type === 'tool_use' || block.type === 'server_tool_use')
  );
}

function sameMessage(a: BetaMessageParam, b: BetaMessageParam | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A deep copy: the agent never shares its history with a caller. */
export function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
