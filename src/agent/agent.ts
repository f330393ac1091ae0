// createMemoryAgent(): the agent a page holds (send, stop, reset, subscribe) over one conversation kept across turns.

import type { Anthropic } from '@anthropic-ai/sdk';
import type { BetaMessageParam } from '../core/sdk-types.js';
import { createAgentClient } from './client.js';
import type { CompactOptions } from './compaction.js';
import { compactionConfig, runCompaction } from './compaction.js';
import { clone } from './conversation.js';
import { MemoryAgentError, describeAgentError } from './errors.js';
import type { Compaction, MemoryAgentListener, TurnEnd } from './events.js';
import { createListeners } from './events.js';
import type { MemoryAgentOptions } from './options.js';
import { requestSettings } from './options.js';
import type { MemoryAgentTurn, TurnScope } from './turn.js';
import { runTurn } from './turn.js';
import type { AgentUsageTotals } from './usage.js';
import { emptyUsage } from './usage.js';

/** What `agent.send()` takes besides the text. */
export interface SendOptions {
  /** Aborting it stops the turn, like `agent.stop()`. */
  signal?: AbortSignal | undefined;
}

/** A conversation with Claude that has the memory tool, made by {@link createMemoryAgent}; one turn at a time. */
export interface MemoryAgent {
  /** The SDK client the agent sends with: the one passed as `client`, or the one it made. */
  readonly client: Anthropic;
  /** The conversation so far, as the next request will send it (a copy). */
  readonly messages: BetaMessageParam[];
  /** Whether a turn (or a compaction) is in progress; `send()` and `reset()` are refused meanwhile. */
  readonly running: boolean;
  /** Tokens used over the agent's life (`reset()` does not zero them), as a copy. */
  readonly usage: AgentUsageTotals;
  /** This conversation's id, the `source` of the memory writes it makes; a new one after `reset()`. */
  readonly conversationId: string;
  /** Sends `text`, runs Claude's memory commands until Claude ends its turn; rejects with a MemoryAgentError. */
  send(text: string, options?: SendOptions): Promise<MemoryAgentTurn>;
  /**
   * Summarizes the conversation into one compaction block, which then stands for all of it. Idle: now, and resolves
   * when done. During a turn: before its next request, or after its last reply; resolves once the turn has ended, to
   * null if it ended first. Not with the `compaction` option (the API compacts by itself then).
   */
  compact(options?: CompactOptions): Promise<Compaction | null>;
  /** Stops the turn (or the compaction) in progress; it rejects with kind `aborted`. Does nothing when idle. */
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
  const { emit, subscribe } = createListeners(options.onEvent);
  let conversationId = options.conversationId ?? newConversationId();
  const scope: TurnScope = {
    client,
    request: requestSettings(options, () => conversationId),
    usage: emptyUsage(),
    emit,
    history: clone(options.messages ?? []),
  };
  let current: AbortController | undefined;
  /** Settles when the `send()` in progress has ended. */
  let turnEnded: Promise<unknown> | undefined;

  /** Runs `work` as the one thing the agent does; `send()` and `compact()` meanwhile are refused. */
  const exclusive = async <T>(signal: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<T>) => {
    if (current) {
      const busy = new Error('A turn is already running: wait for it or stop() it first.');
      throw new MemoryAgentError(describeAgentError(busy));
    }
    const controller = new AbortController();
    current = controller;
    const onAbort = () => controller.abort(abortReason());
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await work(controller.signal);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      current = undefined;
    }
  };

  return {
    client,
    get messages() {
      return clone(scope.history);
    },
    get running() {
      return current !== undefined;
    },
    get usage() {
      return { ...scope.usage };
    },
    get conversationId() {
      return conversationId;
    },
    async send(text, sendOptions = {}) {
      let end: TurnEnd = { outcome: 'error', stopReason: null };
      let started = false;
      const turn = exclusive(sendOptions.signal, (signal) => {
        started = true;
        scope.requested = undefined;
        emit({ type: 'turn_start', text });
        return runTurn(scope, text, signal, (how) => (end = how));
      });
      turnEnded = turn.catch(() => undefined);
      try {
        return await turn;
      } finally {
        // Idle by now: a listener may send() the next message (or reset()) from here.
        if (started) emit({ type: 'turn_end', ...end });
      }
    },
    async compact(compactOptions = {}) {
      if (scope.request.edits.compacts) {
        throw new TypeError(
          'compact() on an agent with the `compaction` option: the API compacts by itself then, and refuses a ' +
            'request that has its edit and a summary asked for on request.',
        );
      }
      const config = compactionConfig(compactOptions);
      if (current && scope.compactNext) {
        scope.compactNext(config);
        await turnEnded;
        return scope.requested ?? null;
      }
      if (!current && scope.history.length === 0) throw new TypeError('compact(): the conversation is empty.');
      return exclusive(undefined, (signal) => runCompaction(scope, config, signal));
    },
    stop() {
      current?.abort(abortReason());
    },
    reset(messages = []) {
      if (current) throw new TypeError('reset() while a turn is running: stop() it first.');
      scope.history = clone(messages);
      conversationId = newConversationId();
    },
    subscribe,
  };
}

/** A random id; `randomUUID` is missing outside secure contexts (a page on plain http), where the time and chance do. */
function newConversationId(): string {
  const crypto = globalThis.crypto as Crypto | undefined;
  return typeof crypto?.randomUUID === 'function'
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

function abortReason(): DOMException {
  return new DOMException('The turn was stopped.', 'AbortError');
}
