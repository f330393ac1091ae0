// createMemoryAgent(): the agent a page holds (send, stop, reset, subscribe) over one conversation kept across turns.

import type { Anthropic } from '@anthropic-ai/sdk';
import type { BetaMessageParam } from '../core/sdk-types.js';
import { createAgentClient } from './client.js';
import { clone } from './conversation.js';
import { MemoryAgentError, describeAgentError } from './errors.js';
import type { MemoryAgentListener, TurnEnd } from './events.js';
import { createListeners } from './events.js';
import type { MemoryAgentOptions } from './options.js';
import { requestSettings } from './options.js';
import type { MemoryAgentTurn, TurnScope } from './turn.js';
import { runTurn } from './turn.js';
import type { AgentUsageTotals } from './usage.js';
import { emptyUsage } from './usage.js';

export interface SendOptions {
  /** Aborting it stops the turn, like `agent.stop()`. */
  signal?: AbortSignal;
}

export interface MemoryAgent {
  readonly client: Anthropic;
  /** The conversation so far, as the next request will send it (a copy). */
  readonly messages: BetaMessageParam[];
  readonly running: boolean;
  readonly usage: AgentUsageTotals;
  /** Sends `text`, runs Claude's memory commands until Claude ends its turn; rejects with a MemoryAgentError. */
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
  const { emit, subscribe } = createListeners(options.onEvent);
  const scope: TurnScope = {
    client,
    request: requestSettings(options),
    usage: emptyUsage(),
    emit,
    history: clone(options.messages ?? []),
  };
  let current: AbortController | undefined;

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
    async send(text, sendOptions = {}) {
      if (current) {
        const busy = new Error('A turn is already running: wait for it or stop() it first.');
        throw new MemoryAgentError(describeAgentError(busy));
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
        return await runTurn(scope, text, controller.signal, (how) => (end = how));
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
      scope.history = clone(messages);
    },
    subscribe,
  };
}

function abortReason(): DOMException {
  return new DOMException('The turn was stopped.', 'AbortError');
}
