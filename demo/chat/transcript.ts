// The chat transcript: the person's messages, Claude's streamed text, and inline every memory command with its
// exact tool_result. Everything is written with textContent: Claude and the memory may say anything.

import type { MemoryAgentEvent } from '../../src/entries/agent.js';
import { el } from '../page/dom.js';
import { storageFailure } from '../page/storage-failure.js';

/** A failure told for the person: what happened and what to do, a paragraph each (send-failure.ts words them). */
export interface Problem {
  /** Its kind (an `AgentErrorKind`, or the demo's own), as a class: `kind-auth`. */
  kind: string;
  title: string;
  lines: string[];
  /** The API's own words, when it sent any. */
  detail?: string;
  /** The Offline demo is a way on: the card offers to play it. */
  offerOffline?: boolean;
}

export interface Transcript {
  user(text: string): void;
  note(text: string): void;
  /** A failure as an alert, with the Offline demo's button if it offers it; `update()` tells it anew. */
  problem(problem: Problem): { update(problem: Problem): void };
  /** A note that a new conversation starts here. */
  newConversation(text: string): void;
  /** Every event but `error`: a failure is told by problem(), with the URL tried, once send() has thrown. */
  show(event: MemoryAgentEvent): void;
  clear(): void;
}

/** `playOffline`: what the cards' "Play the Offline demo" button does. */

export function createTranscript(root: HTMLElement, playOffline: () => void): Transcript {
  let reply: HTMLElement | undefined;
  const calls = new Map<string, HTMLElement>();

  const add = (node: HTMLElement) => {
    root.append(node);
    root.scrollTop = root.scrollHeight;
    return node;
  };

  return {
    user(text) {
      reply = undefined;
      add(el('div', { className: 'msg user' }, el('span', { className: 'who', text: 'You' }), el('p', { text })));
    },
    note(text) {
      reply = undefined;
      add(el('p', { className: 'msg note', text }));
    },
    problem(problem) {
      reply = undefined;
      const item = add(el('div', { attrs: { role: 'alert' } }));
      // A failure (a "Stopped" too) is what the person must see: in the transcript and in the window, whole, also
      // when its words grow after a probe.
      const update = (next: Problem) => {
        fillProblem(item, next, playOffline);
        if (item === root.lastElementChild) root.scrollTop = root.scrollHeight;
        item.scrollIntoView({ block: 'nearest' });
      };
      update(problem);
      return { update };
    },
    newConversation(text) {
      reply = undefined;
      add(el('p', { className: 'msg note new-conversation', text }));
    },
    show(event) {
      switch (event.type) {
        case 'text': {
          if (!reply) {
            const body = el('p');
            add(el('div', { className: 'msg claude' }, el('span', { className: 'who', text: 'Claude' }), body));
            reply = body;
          }
          reply.textContent += event.delta;
          root.scrollTop = root.scrollHeight;
          break;
        }
        case 'tool_call': {
          reply = undefined;
          const result = el('pre', { className: 'result pending', text: 'running…' });
          const input = el('pre', { className: 'input', text: JSON.stringify(event.input, null, 2) });
          const details = el('details', {}, el('summary', { text: 'input' }), input);
          const item = add(
            el(
              'div',
              { className: 'msg tool', attrs: { 'data-tool-use-id': event.id } },
              el('span', { className: 'who', text: `${event.name} · ${summarize(event.input)}` }),
              details,
              result,
            ),
          );
          calls.set(event.id, item);
          break;
        }
        case 'tool_result': {
          const item = calls.get(event.tool_use_id);
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
          reply = undefined;
          if (event.outcome === 'max_iterations') {
            add(el('p', { className: 'msg note', text: 'Paused: Claude hit the limit of requests for one message. Send another to go on.' }));
          }
          break;
        case 'compacted':
          reply = undefined;
          add(compactedItem(event));
          break;
        case 'context_cleared': {
          reply = undefined;
          const parts = [count(event.toolUses, 'old tool use'), count(event.thinkingTurns, 'turn of thinking')];
          const what = parts.filter((part) => !part.startsWith('0 ')).join(' and ') || 'nothing';
          const text = `Context cleared by the API: ${what}, ${count(event.tokens, 'token')}.`;
          add(el('p', { className: 'msg note', text }));
          break;
        }
        case 'turn_start':
        case 'usage':
        case 'error':
          break;
      }
    },
    clear() {
      reply = undefined;
      calls.clear();
      root.replaceChildren();
    },
  };
}

function fillProblem(item: HTMLElement, problem: Problem, playOffline: () => void): void {
  item.className = `msg failure kind-${problem.kind}`;
  const lines = problem.lines.map((text) => el('p', { text }));
  item.replaceChildren(el('span', { className: 'who', text: problem.title }), ...lines);
  if (problem.detail) item.append(el('p', { className: 'detail', text: `The API said: ${problem.detail}` }));
  if (problem.offerOffline) {
    const button = el('button', { text: 'Play a scripted conversation offline', attrs: { type: 'button' } });
    button.addEventListener('click', playOffline);
    item.append(el('div', { className: 'buttons' }, button));
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
