// One `send()`: the SDK's tool runner, streamed or not, with what it does told as events; however the turn ends, the
// history it leaves is one a next request can continue (README.md, "The loop" and "Compaction").

import type { Anthropic } from '@anthropic-ai/sdk';
import type { BetaCompactionConfig, BetaContentBlock, BetaMessage, BetaMessageParam } from '../core/sdk-types.js';
import { asParam, compactionOf } from './compaction.js';
import { COMPACT_NOW_BETA, betasFor, clearedBy } from './context-edits.js';
import { answerCutCalls, clone, fromLastCompaction, resumable, withUserText } from './conversation.js';
import { MemoryAgentError, describeAgentError } from './errors.js';
import { replyOf } from './reply.js';
import type { Compaction, MemoryAgentEvent, TurnEnd } from './events.js';
import type { RequestSettings } from './options.js';
import type { AgentUsageTotals } from './usage.js';
import { addUsage } from './usage.js';

/** What a successful `send()` resolves to. */
export interface MemoryAgentTurn {
  /** `done`: Claude ended its turn; `max_iterations`: the tool-call cap (`maxIterations`) cut it short. */
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
  /** While a turn runs: has its runner compact before its next request, or after its last reply. */
  compactNext?: ((config: BetaCompactionConfig) => void) | undefined;
  /** The last compaction `compactNext` asked for, once done. */
  requested?: Compaction | undefined;
}

/** Stop reasons of a reply the API has not finished: the runner sends the history again for it to go on. */
const UNFINISHED = ['pause_turn', 'compaction'];

/** Runs the turn that `text` starts; `ended` hears how it ended, for the `turn_end` sent once the agent is idle. */
export async function runTurn(
  scope: TurnScope,
  text: string,
  signal: AbortSignal,
  ended: (end: TurnEnd) => void,
): Promise<MemoryAgentTurn> {
  const { emit } = scope;
  const { edits } = scope.request;
  const before = scope.history;
  const start = withUserText(before, text);
  const betas = betasFor(edits, start);
  // The whole history goes with every request: the agent owns it, and proxies need not know threads.
  const { params, stream } = scope.request;
  const runner = scope.client.beta.messages.toolRunner(
    { ...params, ...(betas.length > 0 ? { betas } : {}), messages: start, stream, thread: false },
    { signal },
  );
  scope.compactNext = (config) => {
    runner.compactBeforeNextTurn(config);
    // A request's headers replace the `anthropic-beta` its `betas` make: so all of them, and the one compaction needs.
    const all = [...new Set([...betas, COMPACT_NOW_BETA])].join(',');
    runner.setRequestOptions((options) => ({ ...options, headers: { 'anthropic-beta': all } }));
  };
  /** Claude's last reply: not the answer to a compaction the runner asked for, which is a summary only. */
  let answer: BetaMessage | undefined;
  /** Without the compaction edit, only the runner's compaction (compact()) can send one. */
  const trigger: Compaction['trigger'] = edits.compacts ? 'auto' : 'request';
  /** The turn's last compaction that came whole: kept even if the turn fails after it (README.md, "Compaction"). */
  let summarized: BetaContentBlock | undefined;
  // Whether the answer's headers had come tells a dropped answer from one that never came.
  let streaming: { readonly response: Response | null | undefined } | undefined;
  const showCall = (block: BetaContentBlock, shown: Set<string>) => {
    if (block.type !== 'tool_use' || shown.has(block.id)) return;
    shown.add(block.id);
    emit({ type: 'tool_call', id: block.id, name: block.name, input: block.input });
  };
  try {
    for await (const item of runner) {
      const shown = { text: '', calls: new Set<string>(), compaction: false };
      // Told as soon as it is whole, before the answer it comes first in; the stream's end tops it up.
      const tellCompaction = (block: BetaContentBlock) => {
        if (block.type !== 'compaction' || !block.content || shown.compaction) return;
        shown.compaction = true;
        summarized = clone(block);
        // What the summary replaces: everything sent (while the reply is handled, `params` does not hold it yet).
        const replacedMessages = runner.params.messages.length;
        const compaction = compactionOf(trigger, block.content, replacedMessages);
        if (trigger === 'request') scope.requested = compaction;
        emit({ type: 'compacted', ...compaction });
      };
      if ('finalMessage' in item) {
        streaming = item;
        item.on('text', (delta) => {
          shown.text += delta;
          emit({ type: 'text', delta });
        });
        item.on('contentBlock', (block) => {
          tellCompaction(block);
          showCall(block, shown.calls);
        });
      }
      const message = await replyOf(item);
      streaming = undefined;
      // A reply not streamed is told here whole, in the order a stream tells it (the summary first); a streamed one is
      // topped up, since listeners attached after its first events would have missed them.
      for (const block of message.content) tellCompaction(block);
      const rest = textOf(message).slice(shown.text.length);
      if (rest !== '') emit({ type: 'text', delta: rest });
      for (const block of message.content) showCall(block, shown.calls);

      // Without the compaction edit, a reply that is a summary only answers the runner's own compaction request.
      const requested = !edits.compacts && message.stop_reason === 'compaction';
      if (!requested) answer = message;
      const cleared = clearedBy(message.context_management);
      if (cleared) emit({ type: 'context_cleared', ...cleared });
      addUsage(scope.usage, message.usage);
      emit({ type: 'usage', usage: message.usage, total: { ...scope.usage } });

      // A call cut off by `max_tokens` must not run. The runner caches this response, so the tools run once.
      const runsTools = message.stop_reason === 'tool_use' && !signal.aborted;
      const goesOn = runsTools || (UNFINISHED.includes(message.stop_reason ?? '') && !requested);
      // The API compacted by itself and the runner goes on: from the summary on, as the history will be kept. Set
      // before the tools run, since new params drop the runner's cached tool results.
      if (shown.compaction && !requested && goesOn) {
        runner.setMessagesParams((params) => ({ ...params, messages: [asParam(message)] }));
      }
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
    const message = answer ?? (await runner.done());
    scope.history = fromLastCompaction(answerCutCalls(clone(runner.params.messages)));
    const unfinished = message.stop_reason === 'tool_use' || UNFINISHED.includes(message.stop_reason ?? '');
    const outcome = unfinished ? 'max_iterations' : 'done';
    ended({ outcome, stopReason: message.stop_reason });
    return { outcome, message, text: textOf(message) };
  } catch (error) {
    const kept = resumable(paramsOrStart(runner, start), before);
    scope.history = summarized && !holds(kept, summarized) ? [asParam({ content: [summarized] })] : kept;
    const answered = streaming ? { answered: streaming.response != null } : {};
    const description = describeAgentError(signal.aborted ? signal.reason : error, answered);
    emit({ type: 'error', error: description });
    ended({ outcome: description.kind === 'aborted' ? 'aborted' : 'error', stopReason: answer?.stop_reason ?? null });
    throw new MemoryAgentError(description, { cause: error });
  } finally {
    scope.compactNext = undefined;
  }
}

function paramsOrStart(runner: { params: { messages: BetaMessageParam[] } }, start: BetaMessageParam[]) {
  try {
    return runner.params.messages;
  } catch {
    return start;
  }
}

/** Whether `messages` holds `block`, as it came. */
function holds(messages: BetaMessageParam[], block: BetaContentBlock): boolean {
  const wanted = JSON.stringify(block);
  return messages.some(
    (message) => Array.isArray(message.content) && message.content.some((each) => JSON.stringify(each) === wanted),
  );
}

function textOf(message: BetaMessage): string {
  return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}
