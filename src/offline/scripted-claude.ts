// A fake Claude for offline runs: a `fetch` that answers POST /v1/messages from a script of turns, as the
// Messages API would (a JSON `message`, or the SSE event sequence when the body asks for `stream: true`).
// Owns the wire shapes only; no tool logic. Library code: standard fetch types, no Node APIs.

import type { BetaMessageParam } from '@anthropic-ai/sdk/resources/beta';

/** One scripted assistant turn. */
export interface ScriptedTurn {
  /** A `text` block, sent before any tool use. */
  text?: string;
  /** `tool_use` blocks, in order. `name` defaults to `'memory'`, `id` to `toolu_scripted_<n>`. */
  toolUses?: Array<{ name?: string; input: unknown; id?: string }>;
  /** Defaults to `'tool_use'` when `toolUses` is non-empty, else `'end_turn'`. */
  stopReason?: 'end_turn' | 'tool_use' | 'max_tokens';
}

/** What a POST /v1/messages carried: its parsed JSON body, plus its headers under lower-case names. */
export type ScriptedRequest = {
  model?: string;
  max_tokens?: number;
  stream?: boolean;
  messages?: BetaMessageParam[];
  [field: string]: unknown;
} & { headers: Record<string, string> };

/** A turn, or a function that makes the turn from the request it answers. */
export type ScriptedStep = ScriptedTurn | ((request: ScriptedRequest) => ScriptedTurn);

/** A `tool_result` block as the fake received it. */
export interface ReceivedToolResult {
  tool_use_id: string;
  content: unknown;
  is_error?: boolean;
}

export interface ScriptedClaudeOptions {
  /** The `model` of each reply. Defaults to the request's model, else `claude-scripted`. */
  model?: string;
  /** Wait this long before each answer and between the events of a stream. */
  delayMs?: number;
}

export interface ScriptedClaude {
  /** Pass as `new Anthropic({ fetch })`. */
  fetch: typeof fetch;
  /** Every POST /v1/messages received, in order (not other paths). */
  requests: ScriptedRequest[];
  /**
   * Every `tool_result` block received, in order. Each `tool_use_id` is listed once, the first time it
   * arrives, since a request that does not use a message thread sends the whole history again.
   */
  toolResults(): ReceivedToolResult[];
}

export interface ScriptedResponseOptions {
  /** `text/event-stream` SSE instead of a JSON message. */
  stream?: boolean;
  /** Defaults to `claude-scripted`. */
  model?: string;
  /** The turn's number in the script (0-based): names the message `msg_scripted_<index>` and the request id. */
  index?: number;
  /** `<n>` of the first default tool-use id `toolu_scripted_<n>`; later ones count up. Defaults to 1. */
  toolUseNumber?: number;
  /** Reported as `usage.input_tokens`. Defaults to 1. */
  inputTokens?: number;
  /** Wait this long between stream events. */
  delayMs?: number;
  /** Aborting it errors the stream, like a dropped connection. */
  signal?: AbortSignal | null;
}

/** The text of the turn that answers once the script has no turns left. */
export const SCRIPT_FINISHED_TEXT = '(script finished)';

const DEFAULT_MODEL = 'claude-scripted';
const DEFAULT_TOOL_NAME = 'memory';

type TextBlock = { type: 'text'; text: string };
type ToolUseBlock = { type: 'tool_use'; id: string; name: string; input: unknown };
type ContentBlock = TextBlock | ToolUseBlock;

type WireMessage = {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: ContentBlock[];
  stop_reason: NonNullable<ScriptedTurn['stopReason']>;
  stop_sequence: null;
  usage: { input_tokens: number; output_tokens: number };
};

/** The `message` object the API would return for `turn`. */
function buildMessage(turn: ScriptedTurn, options: ScriptedResponseOptions): WireMessage {
  const index = options.index ?? 0;
  let toolUseNumber = options.toolUseNumber ?? 1;
  const content: ContentBlock[] = [];
  if (turn.text !== undefined) content.push({ type: 'text', text: turn.text });
  for (const toolUse of turn.toolUses ?? []) {
    content.push({
      type: 'tool_use',
      id: toolUse.id ?? `toolu_scripted_${toolUseNumber++}`,
      name: toolUse.name ?? DEFAULT_TOOL_NAME,
      // The API always sends an object; `undefined` would vanish from the JSON.
      input: toolUse.input === undefined ? {} : toolUse.input,
    });
  }
  const hasToolUse = (turn.toolUses?.length ?? 0) > 0;
  return {
    id: `msg_scripted_${index}`,
    type: 'message',
    role: 'assistant',
    model: options.model ?? DEFAULT_MODEL,
    content,
    stop_reason: turn.stopReason ?? (hasToolUse ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    usage: { input_tokens: options.inputTokens ?? 1, output_tokens: estimateTokens(content) },
  };
}

function estimateTokens(content: ContentBlock[]): number {
  const chars = content.reduce(
    (sum, block) => sum + (block.type === 'text' ? block.text.length : JSON.stringify(block.input).length),
    0,
  );
  return Math.max(1, Math.ceil(chars / 4));
}

/** `text` cut into up to `parts` pieces, never inside a code point. An empty text is one empty piece. */
function split(text: string, parts: number): string[] {
  const codePoints = Array.from(text);
  if (codePoints.length === 0) return [''];
  const size = Math.ceil(codePoints.length / parts);
  const pieces: string[] = [];
  for (let i = 0; i < codePoints.length; i += size) pieces.push(codePoints.slice(i, i + size).join(''));
  return pieces;
}

/** The stream events of `message`, in the order the API sends them, as `[event name, data]`. */
function streamEvents(message: WireMessage): Array<[string, unknown]> {
  const events: Array<[string, unknown]> = [];
  events.push([
    'message_start',
    {
      type: 'message_start',
      message: {
        ...message,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: message.usage.input_tokens, output_tokens: 1 },
      },
    },
  ]);
  message.content.forEach((block, index) => {
    if (block.type === 'text') {
      events.push([
        'content_block_start',
        { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
      ]);
      if (index === 0) events.push(['ping', { type: 'ping' }]);
      for (const text of split(block.text, 3)) {
        events.push([
          'content_block_delta',
          { type: 'content_block_delta', index, delta: { type: 'text_delta', text } },
        ]);
      }
    } else {
      events.push([
        'content_block_start',
        {
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
        },
      ]);
      if (index === 0) events.push(['ping', { type: 'ping' }]);
      for (const partial_json of split(JSON.stringify(block.input), 3)) {
        events.push([
          'content_block_delta',
          { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } },
        ]);
      }
    }
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
  });
  events.push([
    'message_delta',
    {
      type: 'message_delta',
      delta: { stop_reason: message.stop_reason, stop_sequence: null },
      usage: { output_tokens: message.usage.output_tokens },
    },
  ]);
  events.push(['message_stop', { type: 'message_stop' }]);
  return events;
}

function abortError(): DOMException {
  return new DOMException('The operation was aborted.', 'AbortError');
}

function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** An SSE body that sends one event per pull, `delayMs` apart, and errors if `signal` aborts first. */
function sseBody(
  events: Array<[string, unknown]>,
  delayMs: number,
  signal: AbortSignal | null,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let next = 0;
  let finished = false;
  let onAbort: (() => void) | undefined;
  const finish = () => {
    finished = true;
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (!signal) return;
      onAbort = () => {
        if (finished) return;
        finish();
        controller.error(abortError());
      };
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    },
    async pull(controller) {
      if (finished) return;
      if (delayMs > 0 && next > 0) {
        try {
          await sleep(delayMs, signal);
        } catch {
          return; // the abort listener has errored the stream
        }
      }
      if (finished) return;
      const event = events[next++];
      if (!event) {
        finish();
        controller.close();
        return;
      }
      const [name, data] = event;
      controller.enqueue(encoder.encode(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`));
    },
    cancel() {
      finish();
    },
  });
}

/** The `Response` the Messages API would give for `turn`: a JSON message, or an SSE stream of it. */
export function createScriptedResponse(turn: ScriptedTurn, options: ScriptedResponseOptions = {}): Response {
  const message = buildMessage(turn, options);
  const headers = new Headers({ 'request-id': `req_scripted_${options.index ?? 0}` });
  if (options.stream) {
    headers.set('content-type', 'text/event-stream; charset=utf-8');
    headers.set('cache-control', 'no-cache');
    const body = sseBody(streamEvents(message), options.delayMs ?? 0, options.signal ?? null);
    return new Response(body, { status: 200, headers });
  }
  headers.set('content-type', 'application/json');
  return new Response(JSON.stringify(message), { status: 200, headers });
}

/** The error `Response` of the API: `{type: 'error', error: {type, message}, request_id}`. */
export function createErrorResponse(
  status: number,
  type: string,
  message: string,
  headers: Record<string, string> = {},
): Response {
  const requestId = `req_scripted_error_${status}`;
  return new Response(JSON.stringify({ type: 'error', error: { type, message }, request_id: requestId }), {
    status,
    headers: { 'content-type': 'application/json', 'request-id': requestId, ...headers },
  });
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
    return response;
  };

  return {
    fetch: scriptedFetch,
    requests,
    toolResults: () => collectToolResults(requests),
  };
}
