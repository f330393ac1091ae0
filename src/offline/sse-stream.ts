// The SSE body of a streamed answer: the events the API sends for a message, in its order, one per pull.

import { abortError, sleep } from './abortable-sleep.js';
import type { WireMessage } from './wire-message.js';

/** An event's name and its data. */
type StreamEvent = [string, unknown];

/** The stream events of `message`, in the order the API sends them. */
export function streamEvents(message: WireMessage): StreamEvent[] {
  const events: StreamEvent[] = [];
  // What the API knows only at the end comes in `message_delta`: the stop, the output, iterations, cleared context.
  const { context_management, usage, ...started } = message;
  events.push([
    'message_start',
    {
      type: 'message_start',
      message: {
        ...started,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: usage.input_tokens, output_tokens: 1 },
      },
    },
  ]);
  message.content.forEach((block, index) => {
    const start = (content_block: unknown) =>
      events.push(['content_block_start', { type: 'content_block_start', index, content_block }]);
    const delta = (delta: unknown) =>
      events.push(['content_block_delta', { type: 'content_block_delta', index, delta }]);
    if (block.type === 'text') {
      start({ type: 'text', text: '' });
      if (index === 0) events.push(['ping', { type: 'ping' }]);
      for (const text of split(block.text, 3)) delta({ type: 'text_delta', text });
    } else if (block.type === 'compaction') {
      // A shell with a null summary, then the whole summary in one delta: the API writes it before it streams it.
      const { content, encrypted_content, ...shell } = block;
      start({ ...shell, content: null, encrypted_content: null });
      if (index === 0) events.push(['ping', { type: 'ping' }]);
      delta({ type: 'compaction_delta', content, encrypted_content });
    } else {
      start({ type: 'tool_use', id: block.id, name: block.name, input: {} });
      if (index === 0) events.push(['ping', { type: 'ping' }]);
      for (const partial_json of split(JSON.stringify(block.input), 3)) {
        delta({ type: 'input_json_delta', partial_json });
      }
    }
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
  });
  const { input_tokens, output_tokens, iterations } = usage;
  events.push([
    'message_delta',
    {
      type: 'message_delta',
      delta: { stop_reason: message.stop_reason, stop_sequence: null },
      usage: { output_tokens, ...(iterations ? { input_tokens, iterations } : {}) },
      ...(context_management ? { context_management } : {}),
    },
  ]);
  events.push(['message_stop', { type: 'message_stop' }]);
  return events;
}

/** An SSE body that sends one event per pull, `delayMs` apart, and errors if `signal` aborts first. */
export function sseBody(
  events: StreamEvent[],
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

/** `text` cut into up to `parts` pieces, never inside a code point. An empty text is one empty piece. */
function split(text: string, parts: number): string[] {
  const codePoints = Array.from(text);
  if (codePoints.length === 0) return [''];
  const size = Math.ceil(codePoints.length / parts);
  const pieces: string[] = [];
  for (let i = 0; i < codePoints.length; i += size) pieces.push(codePoints.slice(i, i + size).join(''));
  return pieces;
}
