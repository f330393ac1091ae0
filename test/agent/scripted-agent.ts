// The agent tests' bench: a memory agent on the scripted Claude with every event recorded, and the ways a test stops
// a turn at a chosen point of what Claude sends.

import { createMemoryAgent, isMemoryAgentError } from '../../src/entries/agent.js';
import type { MemoryAgentEvent, MemoryAgentOptions } from '../../src/entries/agent.js';
import { createScriptedClaude } from '../../src/offline/scripted-claude.js';
import type { ScriptedClaudeOptions, ScriptedStep } from '../../src/offline/scripted-claude.js';

/** An agent on a scripted Claude that plays `turns`, and every event it sends, in order. */
export function scriptedAgent(
  options: Pick<MemoryAgentOptions, 'tool'> & Partial<MemoryAgentOptions>,
  turns: ScriptedStep[],
  claudeOptions: ScriptedClaudeOptions = {},
) {
  const claude = createScriptedClaude(turns, claudeOptions);
  const events: MemoryAgentEvent[] = [];
  const agent = createMemoryAgent({
    apiKey: 'sk-ant-test-key',
    fetch: claude.fetch,
    maxRetries: 0,
    onEvent: (event) => events.push(event),
    ...options,
  });
  return { agent, claude, events };
}

/** The events of `type`, with their fields typed. */
export function eventsOf<T extends MemoryAgentEvent['type']>(events: MemoryAgentEvent[], type: T) {
  return events.filter((event): event is Extract<MemoryAgentEvent, { type: T }> => event.type === type);
}

/** The `kind` of the MemoryAgentError `promise` rejects with. */
export async function kindOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isMemoryAgentError(error)) return error.kind;
    throw error;
  }
  throw new Error('expected it to fail');
}

/**
 * `fetch` whose streamed answers call `stop()` at the first chunk after those that match `marker`, so the SDK has read
 * all up to it. Use with a `delayMs`, which puts each event in a chunk of its own.
 */
export function stoppingAfter(fetch: typeof globalThis.fetch, marker: RegExp, stop: () => void): typeof globalThis.fetch {
  return (async (...args: Parameters<typeof globalThis.fetch>) => {
    const response = await fetch(...args);
    if (!response.body) return response;
    const decoder = new TextDecoder();
    let seen = '';
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          if (marker.test(seen)) stop();
          seen += decoder.decode(chunk, { stream: true });
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(body, { status: response.status, headers: response.headers });
  }) as typeof globalThis.fetch;
}

/** `fetch` that keeps the raw text of each request's body and each answer's, to check what goes back byte for byte. */
export function recordingBodies(fetch: typeof globalThis.fetch) {
  const sent: string[] = [];
  const received: string[] = [];
  const recording = (async (input: RequestInfo | URL, init?: RequestInit) => {
    if (typeof init?.body === 'string') sent.push(init.body);
    const response = await fetch(input, init);
    received.push(await response.clone().text());
    return response;
  }) as typeof globalThis.fetch;
  return { fetch: recording, sent, received };
}
