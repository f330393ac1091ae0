// createMemoryAgent(): a streaming conversation with Claude that uses the memory tool, for a page. It runs the
// SDK's toolRunner, keeps the history across send() calls, can be stopped, and reports what a UI shows.
// Never touches the DOM, never logs, never stores the key (it lives only in the SDK client, in memory).

import type { Anthropic } from '@anthropic-ai/sdk';
import type {
  BetaClearToolUses20250919Edit,
  BetaContentBlock,
  BetaMessage,
  BetaMessageParam,
  BetaStopReason,
  BetaToolResultBlockParam,
  BetaUsage,
} from '@anthropic-ai/sdk/resources/beta';
import type { AgentConnection } from './client.js';
import { createAgentClient } from './client.js';
import type { AgentErrorDescription } from './errors.js';
import { MemoryAgentError, describeAgentError } from './errors.js';
import type { MemoryCommandRunner } from '../adapters/sdk-runnable.js';
import { memoryTool } from '../adapters/sdk-runnable.js';

/**
 * The newest Sonnet in the SDK's own `Model` list (resources/messages, SDK 1.16 and 1.17). `model` is free text:
 * pass any id the key can use.
 */
export const DEFAULT_AGENT_MODEL = 'claude-sonnet-5-5';
/** The memory tool (and context editing) needs this beta; the agent always sends it. */
export const CONTEXT_MANAGEMENT_BETA = 'context-management-2025-06-27';

/** Context editing's `clear_tool_uses_20250919` edit, without its `type`; `true` takes the API's defaults. */
export type ContextManagementOption = boolean | Omit<BetaClearToolUses20250919Edit, 'type'>;

export interface MemoryAgentOptions extends AgentConnection {
  /** Where Claude's `/memories` live, e.g. an `IndexedDBMemoryTool`. */
  tool: MemoryCommandRunner;
  /** Default {@link DEFAULT_AGENT_MODEL}. */
  model?: string;
  system?: string;
  /** `max_tokens` of each request. Default 4096. */
  maxTokens?: number;
  /** Requests per `send()` at most (each tool round trip is one). Default 20. */
  maxIterations?: number;
  /** Sends `context_management` so the API clears old tool uses from long conversations. */
  contextManagement?: ContextManagementOption;
  /** A conversation to continue. */
  messages?: BetaMessageParam[];
  /** Called with every {@link MemoryAgentEvent}; the same as `agent.subscribe(onEvent)`. */
  onEvent?: MemoryAgentListener;
}

/** Totals over the agent's life. Input read from or written to the prompt cache is counted apart, as the API does. */
export interface AgentUsageTotals {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

/**
 * What happens during a `send()`, in this order: `turn_start`; per request `text` deltas and `tool_call`s as
 * they stream, then `usage`, then one `tool_result` per call that ran; finally `error` (if it failed) and
 * `turn_end`, when the agent is idle again (`running` is false: a listener may `send()` the next message).
 */
export type MemoryAgentEvent =
  | { type: 'turn_start'; text: string }
  | { type: 'text'; delta: string }
  | { type: 'tool_call'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content: BetaToolResultBlockParam['content']; is_error: boolean }
  | { type: 'usage'; usage: BetaUsage; total: AgentUsageTotals }
  | { type: 'error'; error: AgentErrorDescription }
  | { type: 'turn_end'; outcome: TurnOutcome; stopReason: BetaStopReason | null };

export type MemoryAgentListener = (event: MemoryAgentEvent) => void;

/** How a `send()` ended: Claude finished, the iteration cap cut it short, it was stopped, or it failed. */
export type TurnOutcome = 'done' | 'max_iterations' | 'aborted' | 'error';

/** What `turn_end` tells. */
type TurnEnd = { outcome: TurnOutcome; stopReason: BetaStopReason | null };

/** What a successful `send()` resolves to. */
export interface MemoryAgentTurn {
  outcome: 'done' | 'max_iterations';
  /** Claude's last message of the turn. */
  message: BetaMessage;
  /** The text of `message`. */
  text: string;
}

export interface SendOptions {
  /** Aborting it stops the turn, like `agent.stop()`. */
  signal?: AbortSignal;
}

export interface MemoryAgent {
  /** The SDK client in use. */
  readonly client: Anthropic;
  /** The conversation so far, as the next request will send it (a copy). */
  readonly messages: BetaMessageParam[];
  /** Whether a `send()` is in progress. */
  readonly running: boolean;
  readonly usage: AgentUsageTotals;
  /**
   * Sends `text` and runs Claude's memory commands until Claude ends its turn. Rejects with a
   * {@link MemoryAgentError} (see its `kind`); the history then keeps only the complete part of the turn.
   */
  send(text: string, options?: SendOptions): Promise<MemoryAgentTurn>;
  /** Stops the turn in progress; `send()` rejects with kind `aborted`. Does nothing when idle. */
  stop(): void;
  /** Forgets the conversation (not the memory). Not while running. */
  reset(messages?: BetaMessageParam[]): void;
  /** Listens to every {@link MemoryAgentEvent}; returns the function that stops listening. */
  subscribe(listener: MemoryAgentListener): () => void;
}

/**
 * A conversation with Claude that has the memory tool.
 *
 * @example
 * const agent = createMemoryAgent({ tool, baseURL: new URL('/anthropic', location.href).href });
 * agent.subscribe((e) => { if (e.type === 'text') out.append(e.delta); });
 * await agent.send('What do you remember about me?');
 */
export function createMemoryAgent(options: MemoryAgentOptions): MemoryAgent {
  const client = createAgentClient(options);
  const runnable = memoryTool(options.tool);
  const listeners = new Set<MemoryAgentListener>();
  if (options.onEvent) listeners.add(options.onEvent);
  const total: AgentUsageTotals = { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
  checkCount('maxTokens', options.maxTokens);
  // The SDK's runner takes 0 as "no cap": a count of requests must be one at least.
  checkCount('maxIterations', options.maxIterations);
  const contextManagement = contextManagementParam(options.contextManagement);
  let history: BetaMessageParam[] = clone(options.messages ?? []);
  let current: AbortController | undefined;

  const emit = (event: MemoryAgentEvent) => {
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch {
        // A UI's bug must not break the conversation loop.
      }
    }
  };

  /** `ended` hears how the turn ended; `send()` announces it once the agent is idle again. */
  async function run(text: string, signal: AbortSignal, ended: (end: TurnEnd) => void): Promise<MemoryAgentTurn> {
    const start = withUserText(history, text);
    const runner = client.beta.messages.toolRunner(
      {
        model: options.model ?? DEFAULT_AGENT_MODEL,
        max_tokens: options.maxTokens ?? 4096,
        max_iterations: options.maxIterations ?? 20,
        messages: start,
        tools: [runnable],
        stream: true,
        // The whole history goes with every request: the agent owns it, and proxies need not know threads.
        thread: false,
        ...(options.system !== undefined ? { system: options.system } : {}),
        // The memory tool is generally available (no beta header); context editing still needs its beta.
        ...(contextManagement ? { betas: [CONTEXT_MANAGEMENT_BETA], context_management: contextManagement } : {}),
      },
      { signal },
    );
    let last: BetaMessage | undefined;
    /** The request being answered: whether its headers came tells a dropped answer from one that never came. */
    let streaming: { readonly response: Response | null | undefined } | undefined;
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
        total.input_tokens += message.usage.input_tokens;
        total.output_tokens += message.usage.output_tokens;
        total.cache_read_input_tokens += message.usage.cache_read_input_tokens ?? 0;
        total.cache_creation_input_tokens += message.usage.cache_creation_input_tokens ?? 0;
        emit({ type: 'usage', usage: message.usage, total: { ...total } });
        // Only a `tool_use` stop runs tools (a call cut off by `max_tokens` must not run), and not once stopped. The
        // runner caches the response, so the tools run once: here, where their results can be shown before the
        // next request.
        const toolMessage = message.stop_reason === 'tool_use' && !signal.aborted ? await runner.generateToolResponse() : null;
        for (const block of Array.isArray(toolMessage?.content) ? toolMessage.content : []) {
          if (block.type !== 'tool_result') continue;
          emit({
            type: 'tool_result',
            tool_use_id: block.tool_use_id,
            content: block.content ?? '',
            is_error: block.is_error === true,
          });
        }
        // Stopped once tools have run: their writes are done, so the round trip must stay in the history. The runner
        // adds their results as it starts the next request, which the stop then cancels (kept by the catch below).
        if (signal.aborted && toolMessage === null) break;
      }
      if (signal.aborted) throw signal.reason;
      const message = last ?? (await runner.done());
      history = answerCutCalls(clone(runner.params.messages));
      const outcome = message.stop_reason === 'tool_use' ? 'max_iterations' : 'done';
      ended({ outcome, stopReason: message.stop_reason });
      return { outcome, message, text: textOf(message) };
    } catch (error) {
      history = resumable(paramsOrStart(runner, start), history);
      const answered = streaming ? { answered: streaming.response != null } : {};
      const description = describeAgentError(signal.aborted ? signal.reason : error, answered);
      emit({ type: 'error', error: description });
      ended({ outcome: description.kind === 'aborted' ? 'aborted' : 'error', stopReason: last?.stop_reason ?? null });
      throw new MemoryAgentError(description, { cause: error });
    }
  }

  function showCall(block: BetaContentBlock, shown: Set<string>): void {
    if (block.type !== 'tool_use' || shown.has(block.id)) return;
    shown.add(block.id);
    emit({ type: 'tool_call', id: block.id, name: block.name, input: block.input });
  }

  return {
    client,
    get messages() {
      return clone(history);
    },
    get running() {
      return current !== undefined;
    },
    get usage() {
      return { ...total };
    },
    async send(text, sendOptions = {}) {
      if (current) {
        throw new MemoryAgentError(describeAgentError(new Error('A turn is already running: wait for it or stop() it first.')));
      }
      const controller = new AbortController();
      current = controller;
      const outer = sendOptions.signal;
      const onAbort = () => controller.abort(abortReason());
      if (outer?.aborted) onAbort();
      else outer?.addEventListener('abort', onAbort, { once: true });
      emit({ type: 'turn_start', text });
      let end: TurnEnd = { outcome: 'error', stopReason: null };
      try {
        return await run(text, controller.signal, (how) => (end = how));
      } finally {
        outer?.removeEventListener('abort', onAbort);
        current = undefined;
        // Idle by now: a listener may send() the next message (or reset()) from here.
        emit({ type: 'turn_end', ...end });
      }
    },
    stop() {
      current?.abort(abortReason());
    },
    reset(messages = []) {
      if (current) throw new TypeError('reset() while a turn is running: stop() it first.');
      history = clone(messages);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

function checkCount(name: string, value: number | undefined): void {
  if (value !== undefined && (!Number.isSafeInteger(value) || value < 1)) {
    throw new TypeError(`\`${name}\` must be a positive integer, got ${String(value)}`);
  }
}

function contextManagementParam(option: ContextManagementOption | undefined) {
  if (!option) return undefined;
  const edit: BetaClearToolUses20250919Edit = { ...(option === true ? {} : option), type: 'clear_tool_uses_20250919' };
  return { edits: [edit] };
}

/** The history with `text` as the next user turn; tool results left unanswered by an iteration cap share it. */
function withUserText(history: BetaMessageParam[], text: string): BetaMessageParam[] {
  const last = history.at(-1);
  if (last?.role === 'user') {
    const content = typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content;
    return [...history.slice(0, -1), { role: 'user', content: [...content, { type: 'text', text }] }];
  }
  return [...history, { role: 'user', content: text }];
}

function paramsOrStart(runner: { params: { messages: BetaMessageParam[] } }, start: BetaMessageParam[]) {
  try {
    return runner.params.messages;
  } catch {
    return start;
  }
}

/**
 * The longest part of `messages` (a failed turn's) that a next request can continue: it ends with Claude's finished
 * text, or with the results of all its tool calls, and holds more than the history before the turn (`before`).
 * Otherwise `before` itself: the turn's text was merged into its last message (tool results an iteration cap left
 * unanswered), so the same number of messages of `messages` would keep a text that was never answered.
 */
function resumable(messages: BetaMessageParam[], before: BetaMessageParam[]): BetaMessageParam[] {
  for (let end = messages.length; end > before.length; end--) {
    const last = messages[end - 1];
    if (last && isResumableEnd(last)) return clone(messages.slice(0, end));
  }
  return clone(before);
}

/**
 * `messages` with an error result for each tool call of the last reply that no result answers (a reply cut off by
 * `max_tokens` or ended otherwise with calls in it): the API refuses a history with a call left unanswered, and
 * Claude learns that the call did not run.
 */
function answerCutCalls(messages: BetaMessageParam[]): BetaMessageParam[] {
  const last = messages.at(-1);
  if (last?.role !== 'assistant' || typeof last.content === 'string') return messages;
  const results: BetaToolResultBlockParam[] = last.content.flatMap((block) =>
    block.type === 'tool_use'
      ? [{ type: 'tool_result' as const, tool_use_id: block.id, is_error: true, content: CUT_CALL }]
      : [],
  );
  return results.length === 0 ? messages : [...messages, { role: 'user', content: results }];
}

const CUT_CALL = 'Not run: the reply was cut off before this call was complete. Make the call again if it is still needed.';

function isResumableEnd(message: BetaMessageParam): boolean {
  if (message.role === 'system' || message.content === undefined) return false;
  if (typeof message.content === 'string') return message.role === 'assistant' && message.content !== '';
  if (message.role === 'user') return message.content.some((block) => block.type === 'tool_result');
  return (
    message.content.length > 0 &&
    !message.content.some((block) => block.type === 'tool_use' || block.type === 'server_tool_use')
  );
}

function textOf(message: BetaMessage): string {
  return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function abortReason(): DOMException {
  return new DOMException('The turn was stopped.', 'AbortError');
}
