// The chat panel: Send / Stop / Offline demo / New conversation, wired to createMemoryAgent. The agent is made
// from the connection panel on demand and remade (keeping the conversation) when the connection changes.

import { createMemoryAgent, describeAgentError } from '../src/entries/agent.js';
import { createScriptedClaude } from '../src/entries/offline.js';
import type { IndexedDBMemoryTool } from '../src/index.js';
import type { MemoryAgent, MemoryAgentEvent } from '../src/entries/agent.js';
import type { ConnectionPanel } from './connection.js';
import { byId } from './dom.js';
import { OFFLINE_PROMPT, offlineTurns } from './offline-script.js';
import { storageFailure } from './storage-failure.js';
import type { StorageFailure } from './storage-failure.js';
import { createTranscript } from './transcript.js';

export function setupChat(
  tool: IndexedDBMemoryTool,
  connection: ConnectionPanel,
  onStorageFailure: (failure: StorageFailure) => void,
): void {
  const form = byId('chat-form', HTMLFormElement);
  const message = byId('message', HTMLTextAreaElement);
  const send = byId('send', HTMLButtonElement);
  const stop = byId('stop', HTMLButtonElement);
  const offline = byId('offline-demo', HTMLButtonElement);
  const newChat = byId('new-chat', HTMLButtonElement);
  const usage = byId('usage', HTMLElement);
  const transcript = createTranscript(byId('transcript', HTMLElement));

  let agent: MemoryAgent | undefined;
  let active: MemoryAgent | undefined;
  /** The conversation of an agent dropped by a change of connection, for the next one to go on with. */
  let conversation: MemoryAgent['messages'] = [];
  let madeFor = '';

  /** `scripted`: from the Offline demo, whose token counts are made up by the script, not billed by anyone. */
  const onEvent = (event: MemoryAgentEvent, scripted = false) => {
    transcript.show(event);
    if (event.type === 'tool_result') {
      const failure = storageFailure(event.content, event.is_error);
      if (failure) onStorageFailure(failure);
    }
    if (event.type === 'usage') {
      const counts = `${event.total.input_tokens} in, ${event.total.output_tokens} out`;
      usage.textContent = scripted ? `Tokens of the scripted turns (made up, not billed): ${counts}.` : `Tokens so far: ${counts}.`;
    }
  };

  const busy = (running: MemoryAgent | undefined) => {
    active = running;
    send.disabled = running !== undefined;
    offline.disabled = running !== undefined;
    newChat.disabled = running !== undefined;
    stop.disabled = running === undefined;
  };

  const run = async (runner: MemoryAgent, text: string) => {
    transcript.user(text);
    busy(runner);
    try {
      await runner.send(text);
    } catch {
      // Shown already: the agent reports every failure as an `error` event.
    } finally {
      busy(undefined);
      message.focus();
    }
  };

  /** The agent for the connection as it is now; the conversation carries over a change of connection. */
  const currentAgent = (): MemoryAgent | undefined => {
    const choice = connection.read();
    if (!choice.ok) {
      transcript.note(choice.summary);
      return undefined;
    }
    // Held in this closure only, to tell whether the fields changed since the agent was made.
    const signature = JSON.stringify([choice.apiKey, choice.baseURL, choice.model, choice.contextManagement]);
    if (agent && signature === madeFor) return agent;
    if (agent) conversation = agent.messages;
    madeFor = signature;
    try {
      agent = createMemoryAgent({
        tool,
        model: choice.model,
        contextManagement: choice.contextManagement,
        ...(choice.apiKey !== undefined ? { apiKey: choice.apiKey } : {}),
        ...(choice.baseURL !== undefined ? { baseURL: choice.baseURL } : {}),
        messages: conversation,
        onEvent,
      });
    } catch (error) {
      agent = undefined;
      transcript.note(describeAgentError(error).message);
      return undefined;
    }
    return agent;
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = message.value.trim();
    if (text === '' || active) return;
    const runner = currentAgent();
    if (!runner) return;
    message.value = '';
    void run(runner, text);
  });

  message.addEventListener('keydown', (event) => {
    // Enter sends, Shift+Enter is a new line; an IME composing text owns Enter.
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      form.requestSubmit();
    }
  });

  stop.addEventListener('click', () => active?.stop());

  offline.addEventListener('click', () => {
    if (active) return;
    // A scripted Claude behind a fetch: the real SDK runner streams from it, the real tool runs the commands.
    const claude = createScriptedClaude(offlineTurns(), { delayMs: 30 });
    const demo = createMemoryAgent({
      tool,
      baseURL: 'https://scripted-claude.invalid',
      fetch: claude.fetch,
      maxRetries: 0,
      onEvent: (event) => onEvent(event, true),
    });
    transcript.note('Offline demo: a scripted Claude, the real SDK tool runner, this memory. Nothing leaves the page.');
    void run(demo, OFFLINE_PROMPT);
  });

  newChat.addEventListener('click', () => {
    if (active) return;
    agent?.reset();
    conversation = [];
    transcript.clear();
    usage.textContent = '';
    transcript.note('New conversation. The memory stays.');
  });
}
