// The `Response`s the Messages API gives: a scripted turn as a JSON message or an SSE stream, and its error body.

import { sseBody, streamEvents } from './sse-stream.js';
import type { MessageFields, ScriptedTurn } from './wire-message.js';
import { buildMessage } from './wire-message.js';

export interface ScriptedResponseOptions extends MessageFields {
  /** `text/event-stream` SSE instead of a JSON message. */
  stream?: boolean;
  /** Wait this long between stream events. */
  delayMs?: number;
  /** Aborting it errors the stream, like a dropped connection. */
  signal?: AbortSignal | null;
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
