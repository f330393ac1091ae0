// createScriptedClaude(): a fake Claude for offline runs, as a `fetch` that answers each POST /v1/messages with the
// next turn of a script and records what it received. Library code: standard fetch types, no Node APIs.

import type { MessageParamShape } from '../core/message-shapes.js';
import { abortError, sleep } from './abortable-sleep.js';
import { createErrorResponse, createScriptedResponse } from './responses.js';
import type { ScriptedTurn } from './wire-message.js';
import { DEFAULT_MODEL, buildMessage } from './wire-message.js';

/** What a POST /v1/messages carried: its parsed JSON body, plus its headers under lower-case names. */
export type ScriptedRequest = {
  /** The model asked for. */
  model?: string;
  /** The request's `max_tokens`. */
  max_tokens?: number;
  /** Whether a stream of events was asked for (the fake answers either way). */
  stream?: boolean;
  /** The conversation sent, the whole history each time. */
  messages?: MessageParamShape[];
  [field: string]: unknown;
} & {
  /** The request's headers, under lower-case names (e.g. `x-api-key`, `anthropic-beta`). */
  headers: Record<string, string>;
};

/** A turn, or a function that makes the turn from the request it answers. */
export type ScriptedStep = ScriptedTurn | ((request: ScriptedRequest) => ScriptedTurn);

/** A `tool_result` block as the fake received it. */
export interface ReceivedToolResult {
  /** The id of the `tool_use` it answers. */
  tool_use_id: string;
  /** What the tool answered, as sent: a string or content blocks. */
  content: unknown;
  /** Present as the client sent it: `true` for a refusal. */
  is_error?: boolean;
}

/** How the fake answers: the model it names, and how slowly. */
export interface ScriptedClaudeOptions {
  /** The `model` of each reply. Defaults to the request's model, else `claude-scripted`. */
  model?: string | undefined;
  /** Wait this long before each answer and between the events of a stream. */
  delayMs?: number | undefined;
}

/** A fake Claude, made by {@link createScriptedClaude}: a `fetch` to give the SDK, and what it received. */
export interface ScriptedClaude {
  /** Pass as `new Anthropic({ fetch })`. */
  fetch: typeof fetch;
  /** Every POST /v1/messages received, in order (not other paths). */
  requests: ScriptedRequest[];
  /** Every `tool_result` block received, in order, each `tool_use_id` once (each request resends the history). */
  toolResults(): ReceivedToolResult[];
}

/** The text of the turn that answers once the script has no turns left. */
export const SCRIPT_FINISHED_TEXT = '(script finished)';

/**
 * A fake Claude that answers each POST /v1/messages (any base URL, with or without `?beta=true`) with the next
 * turn of `turns`, then with an `end_turn` text turn "(script finished)". Anything else gets a 404 in the API's
 * error shape.
 */
export function createScriptedClaude(turns: ScriptedStep[], options: ScriptedClaudeOptions = {}): ScriptedClaude {
  const requests: ScriptedRequest[] = [];
  const delayMs = options.delayMs ?? 0;
  let nextTurn = 0;
  let toolUseNumber = 1;
  /** Each compaction block sent, as a request must send it back. */
  const compactions = new Set<string>();

  const scriptedFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    const signal = request.signal;
    if (signal.aborted) throw abortError();
    if (!isMessagesEndpoint(request)) {
      return createErrorResponse(404, 'not_found_error', `Not found: ${request.method} ${request.url}`);
    }

    let body: unknown;
    try {
      body = JSON.parse(await request.text());
    } catch {
      return createErrorResponse(400, 'invalid_request_error', 'The request body is not valid JSON');
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return createErrorResponse(400, 'invalid_request_error', 'The request body must be a JSON object');
    }
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name.toLowerCase()] = value;
    });
    const received: ScriptedRequest = { ...(body as Record<string, unknown>), headers };
    requests.push(received);
    const refusal = refusedCompaction(received.messages, compactions);
    if (refusal) return createErrorResponse(400, 'invalid_request_error', refusal);

    const index = nextTurn++;
    const step = turns[index];
    const turn: ScriptedTurn =
      step === undefined ? { text: SCRIPT_FINISHED_TEXT, stopReason: 'end_turn' }
      : typeof step === 'function' ? step(received)
      : step;

    if (delayMs > 0) await sleep(delayMs, signal);
    const response = createScriptedResponse(turn, {
      stream: received.stream === true,
      model: options.model ?? (typeof received.model === 'string' ? received.model : DEFAULT_MODEL),
      index,
      toolUseNumber,
      inputTokens: Math.max(1, Math.ceil(JSON.stringify(received.messages ?? []).length / 4)),
      delayMs,
      signal,
    });
    toolUseNumber += turn.toolUses?.filter((toolUse) => toolUse.id === undefined).length ?? 0;
    if (turn.compaction) compactions.add(compactionKey(buildMessage(turn, { index }).content[0]));
    return response;
  };

  return {
    fetch: scriptedFetch,
    requests,
    toolResults: () => collectToolResults(requests),
  };
}

/**
 * Why the API would refuse the compaction blocks of `messages`, or undefined: more than one with a summary, or one
 * that is not exactly as this fake sent it (its summary, opaque content, signature and tool changes).
 */
function refusedCompaction(messages: unknown, sent: ReadonlySet<string>): string | undefined {
  const blocks = (Array.isArray(messages) ? messages : []).flatMap((message: unknown) => {
    const content = (message as { content?: unknown } | null)?.content;
    return Array.isArray(content) ? content.filter(isCompaction) : [];
  });
  if (blocks.filter((block) => block.content != null).length > 1) {
    return (
      '`messages` holds more than one `compaction` block with content. ' +
      'Send only the block the conversation returned last.'
    );
  }
  if (blocks.some((block) => !sent.has(compactionKey(block)))) {
    return 'A `compaction` block differs from the one returned: send it back verbatim.';
  }
  return undefined;
}

function isCompaction(block: unknown): block is Record<string, unknown> {
  return typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'compaction';
}

/** The fields of a compaction block that must come back unchanged. */
function compactionKey(block: unknown): string {
  const { content, encrypted_content, signature, tool_changes } = (block ?? {}) as Record<string, unknown>;
  return JSON.stringify([content ?? null, encrypted_content ?? null, signature ?? null, tool_changes ?? null]);
}

function isMessagesEndpoint(request: Request): boolean {
  if (request.method !== 'POST') return false;
  try {
    return new URL(request.url).pathname.replace(/\/+$/, '').endsWith('/v1/messages');
  } catch {
    return false;
  }
}

function collectToolResults(requests: readonly ScriptedRequest[]): ReceivedToolResult[] {
  const results: ReceivedToolResult[] = [];
  const seen = new Set<string>();
  for (const request of requests) {
    for (const message of request.messages ?? []) {
      if (!Array.isArray(message.content)) continue;
      for (const block of message.content as unknown[]) {
        if (typeof block !== 'object' || block === null) continue;
        const { type, tool_use_id, content, is_error } = block as Record<string, unknown>;
        if (type !== 'tool_result' || typeof tool_use_id !== 'string' || seen.has(tool_use_id)) continue;
        seen.add(tool_use_id);
        const result: ReceivedToolResult = { tool_use_id, content };
        if (typeof is_error === 'boolean') result.is_error = is_error;
        results.push(result);
      }
    }
  }
  return results;
}
