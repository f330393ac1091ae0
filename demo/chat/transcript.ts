// The chat transcript: the person's messages, Claude's streamed text, and inline every memory command with its
// exact tool_result. Everything is written with textContent: Claude and the memory may say anything.

import type { MemoryAgentEvent } from '../../src/entries/agent.js';
import { el } from '../page/dom.js';
import { once } from '../page/load-once.js';

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

/** What the event renderer (./transcript-events.ts) works on: the list, and Claude's reply and tool calls so far. */
export interface TranscriptView {
  readonly root: HTMLElement;
  add(node: HTMLElement): HTMLElement;
  /** The paragraph Claude's text goes on in, until something else is told. */
  reply: HTMLElement | undefined;
  /** Each tool call's item by its id, for its result. */
  readonly calls: Map<string, HTMLElement>;
}

let events: typeof import('./transcript-events.js') | undefined;

/** The code that draws a conversation's events: needed only once one runs, so not in the first load. */
export const loadTranscriptEvents: () => Promise<void> = once(async () => {
  events = await import('./transcript-events.js');
});

/** `playOffline`: what the cards' "Play the Offline demo" button does. */
export function createTranscript(root: HTMLElement, playOffline: () => void): Transcript {
  const add = (node: HTMLElement) => {
    root.append(node);
    root.scrollTop = root.scrollHeight;
    return node;
  };
  const view: TranscriptView = { root, add, reply: undefined, calls: new Map() };
  const pending: MemoryAgentEvent[] = [];

  return {
    user(text) {
      view.reply = undefined;
      add(el('div', { className: 'msg user' }, el('span', { className: 'who', text: 'You' }), el('p', { text })));
    },
    note(text) {
      view.reply = undefined;
      add(el('p', { className: 'msg note', text }));
    },
    problem(problem) {
      view.reply = undefined;
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
      view.reply = undefined;
      add(el('p', { className: 'msg note new-conversation', text }));
    },
    show(event) {
      if (events) return events.showEvent(view, event);
      // Not loaded yet (the agent's loaders fetch it beside the agent: ../page/lazy-code.ts): kept in order until it is.
      if (pending.push(event) === 1) {
        void loadTranscriptEvents().then(
          () => {
            for (const held of pending.splice(0)) events?.showEvent(view, held);
          },
          () => {
            pending.length = 0; // the agent's own load failed too, and says so
          },
        );
      }
    },
    clear() {
      view.reply = undefined;
      view.calls.clear();
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
