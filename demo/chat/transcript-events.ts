// How the chat transcript draws a conversation's events: Claude's streamed text, each memory command with its exact
// tool_result, compactions and cleared context. Loaded with the agent (./transcript.ts), not in the first load.

import type { MemoryAgentEvent } from '../../src/entries/agent.js';
import { el } from '../page/dom.js';
import { storageFailure } from '../page/storage-failure.js';
import type { TranscriptView } from './transcript.js';

/** Draws `event` in the transcript `view` (every event but `error`, which the chat tells as a problem). */
export function showEvent(view: TranscriptView, event: MemoryAgentEvent): void {
  switch (event.type) {
    case 'text': {
      if (!view.reply) {
        const body = el('p');
        view.add(el('div', { className: 'msg claude' }, el('span', { className: 'who', text: 'Claude' }), body));
        view.reply = body;
      }
      view.reply.textContent += event.delta;
      view.root.scrollTop = view.root.scrollHeight;
      break;
    }
    case 'tool_call': {
      view.reply = undefined;
      const result = el('pre', { className: 'result pending', text: 'running…' });
      const input = el('pre', { className: 'input', text: JSON.stringify(event.input, null, 2) });
      const details = el('details', {}, el('summary', { text: 'input' }), input);
      const item = view.add(
        el(
          'div',
          { className: 'msg tool', attrs: { 'data-tool-use-id': event.id } },
          el('span', { className: 'who', text: `${event.name} · ${summarize(event.input)}` }),
          details,
          result,
        ),
      );
      view.calls.set(event.id, item);
      break;
    }
    case 'tool_result': {
      const item = view.calls.get(event.tool_use_id);
      const result = item?.querySelector('pre.result');
      if (!result) break;
      result.textContent = typeof event.content === 'string' ? event.content : JSON.stringify(event.content, null, 2);
      result.className = event.is_error ? 'result error' : 'result ok';
      result.setAttribute('aria-label', event.is_error ? 'Error result' : 'Result');
      const failure = storageFailure(event.content, event.is_error);
      if (failure) {
        // Not Claude's mistake: the browser refused to store it. Said as loudly as an API failure.
        item?.classList.add('storage-failed');
        item?.append(
          el('div', { className: 'storage-alert', attrs: { role: 'alert' } },
            el('span', { className: 'who', text: failure.title }),
            el('p', { text: failure.advice }),
          ),
        );
      }
      break;
    }
    case 'turn_end':
      view.reply = undefined;
      if (event.outcome === 'max_iterations') {
        view.add(el('p', { className: 'msg note', text: 'Paused: Claude hit the limit of requests for one message. Send another to go on.' }));
      }
      break;
    case 'compacted':
      view.reply = undefined;
      view.add(compactedItem(event));
      break;
    case 'context_cleared': {
      view.reply = undefined;
      const parts = [count(event.toolUses, 'old tool use'), count(event.thinkingTurns, 'turn of thinking')];
      const what = parts.filter((part) => !part.startsWith('0 ')).join(' and ') || 'nothing';
      const text = `Context cleared by the API: ${what}, ${count(event.tokens, 'token')}.`;
      view.add(el('p', { className: 'msg note', text }));
      break;
    }
    case 'turn_start':
    case 'usage':
    case 'error':
      break;
  }
}

/** A compaction: what it replaced, and the summary Claude goes on from (opened on demand). */
function compactedItem(event: Extract<MemoryAgentEvent, { type: 'compacted' }>): HTMLElement {
  const by = event.trigger === 'auto' ? 'The API compacted the conversation' : 'Compacted on request';
  const size = count(event.summaryChars, 'character');
  const replaced = count(event.replacedMessages, 'message');
  return el(
    'div',
    { className: 'msg note compacted' },
    el('p', { text: `${by}: a summary of ${size} now stands for the ${replaced} before it.` }),
    el('details', {}, el('summary', { text: 'Summary' }), el('p', { text: event.summary })),
  );
}

/** `3 messages`, `1 message`. */
function count(n: number, noun: string): string {
  return `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;
}

/** One line for a memory command: `view /memories`, `rename /a → /b`. */
function summarize(input: unknown): string {
  if (typeof input !== 'object' || input === null) return JSON.stringify(input);
  const fields = input as Record<string, unknown>;
  const command = typeof fields.command === 'string' ? fields.command : '?';
  if (command === 'rename') return `rename ${String(fields.old_path)} → ${String(fields.new_path)}`;
  return typeof fields.path === 'string' ? `${command} ${fields.path}` : command;
}
