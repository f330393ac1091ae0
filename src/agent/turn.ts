// One `send()`: the SDK's tool runner, streaming, with what it does told as events; however the turn ends, the
// history it leaves is one a next request can continue (README.md, "The loop").

import type { Anthropic } from '@anthropic-ai/sdk';
import type { BetaContentBlock, BetaMessage, BetaMessageParam } from '../core/sdk-types.js';
import { answerCutCalls, clone, resumable, withUserText } from './conversation.js';
import { MemoryAgentError, describeAgentError } from './errors.js';
import type { MemoryAgentEvent, TurnEnd } from './events.js';
import type { RequestSettings } from './options.js';
import type { AgentUsageTotals } from './usage.js';
import { addUsage } from './usage.js';

/** What a successful `send()` resolves to. */
export interface MemoryAgentTurn {
  outcome: 'done' | 'max_iterations';
  /** Claude's last message of the turn. */
  message: BetaMessage;
  /** The text of `message`. */
  text: string;
}

/** What a turn works on: it adds to `usage` and replaces `history`, in place. */
export interface TurnScope {
  readonly client: Anthropic;
  readonly request: RequestSettings;
  readonly usage: AgentUsageTotals;
  readonly emit: (event: MemoryAgentEvent) => void;
  history: BetaMessageParam[];
}

/** Runs the turn that `text` starts; `ended` hears how it ended, for the `turn_end` sent once the agent is idle. */
export async function runTurn(
  scope: TurnScope,
  text: string,
  signal: AbortSignal,
  ended: (end: TurnEnd) => void,
): Promise<MemoryAgentTurn> {
  const { emit } = scope;
  const before = scope.history;
  const start = withUserText(before, text);
  // The whole history goes with every request: the agent owns it, and proxies need not know threads.
  const runner = scope.client.beta.messages.toolRunner(
    { ...scope.request, messages: start, stream: true, thread: false },
    { signal },
  );
  let last: BetaMessage | undefined;
  // Whether the answer's headers had come tells a dropped answer from one that never came.
  let streaming: { readonly response: Response | null | undefined } | undefined;
  const showCall = (block: BetaContentBlock, shown: Set<string>) => {
    if (block.type !== 'tool_use' || shown.has(block.id)) return;
    shown.add(block.id);
    emit({ type: 'tool_call', id: block.id, name: block.name, input: block.input });
  };
  try {
    for await (const stream of runner) {
      streaming = stream;
      const shown = { text: '', calls: new Set<string>() };
      stream.on('text', (delta) => {
        shown.text += delta;
        emit({ type: 'text', delta });
      });
      stream.on('contentBlock', (block) => showCall(block, shown.calls));
      const message = await stream.finalMessage();
      streaming = undefined;
      last = message;
      // Listeners attached after the first events would have missed them; show what is missing.
      const rest = textOf(message).slice(shown.text.length);
      if (rest !== '') emit({ type: 'text', delta: rest });
      for (const block of message.content) showCall(block, shown.calls);
      addUsage(scope.usage, message.usage);
      emit({ type: 'usage', usage: message.usage, total: { ...scope.usage } });
      // A call cut off by `max_tokens` must not run. The runner caches this response, so the tools run once.
      const runsTools = message.stop_reason === 'tool_use' && !signal.aborted;
      const toolMessage = runsTools ? await runner.generateToolResponse() : null;
      for (const block of Array.isArray(toolMessage?.content) ? toolMessage.content : []) {
        if (block.type !== 'tool_result') continue;
        const { tool_use_id, content, is_error } = block;
        emit({ type: 'tool_result', tool_use_id, content: content ?? '', is_error: is_error === true });
      }
      // Stopped after tools ran: the runner's next request (cancelled) still adds their results to its messages.
      if (signal.aborted && toolMessage === null) break;
    }
    if (signal.aborted) throw signal.reason;
    const message = last ?? (await runner.done());
    scope.history = answerCutCalls(clone(runner.params.messages));
    const outcome = message.stop_reason === 'tool_use' ? 'max_iterations' : 'done';
    ended({ outcome, stopReason: message.stop_reason });
    return { outcome, message, text: textOf(message) };
  } catch (error) {
    scope.history = resumable(paramsOrStart(runner, start), before);
    const answered = streaming ? { answered: streaming.response != null } : {};
    const description = describeAgentError(signal.aborted ? signal.reason : error, answered);
    emit({ type: 'error', error: description });
    ended({ outcome: description.kind === 'aborted' ? 'aborted' : 'error', stopReason: last?.stop_reason ?? null });
    throw new MemoryAgentError(description, { cause: error });
  }
}

function paramsOrStart(runner: { params: { messages: BetaMessageParam[] } }, start: BetaMessageParam[]) {
  try {
    return runner.params.messages;
  } catch {
    return start;
  }
}

function textOf(message: BetaMessage): string {
  return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}
