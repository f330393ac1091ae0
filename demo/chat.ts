// The chat panel: Send / Stop / Offline demo / New conversation, wired to createMemoryAgent. The agent is made
// from the connection panel on demand and remade (keeping the conversation) when the connection changes.

import { createMemoryAgent, describeAgentError } from '../src/entries/agent.js';
import type { IndexedDBMemoryTool } from '../src/index.js';
import type { MemoryAgent, MemoryAgentEvent } from '../src/entries/agent.js';
import type { ConnectionPanel } from './connection.js';
import { byId } from './dom.js';
import { OFFLINE_SCRIPTS } from './offline-scripts/index.js';
import { offlineAgent, playConversations } from './offline-scripts/play.js';
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
  // The script picker is optional: without it, the Offline demo plays the first script.
  const picked = document.getElementById('offline-script');
  const picker = picked instanceof HTMLSelectElement ? picked : undefined;
  for (const script of OFFLINE_SCRIPTS) picker?.append(new Option(script.label, script.id));

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
      const { total } = event;
      const { compactions: n, compaction_input_tokens: read, compaction_output_tokens: wrote } = total;
      const compactions = n > 0 ? `; ${n} compaction${n === 1 ? '' : 's'}: ${read} in, ${wrote} out` : '';
      const counts = `${total.input_tokens} in, ${total.output_tokens} out${compactions}`;
      usage.textContent = scripted ? `Tokens of the scripted turns (made up, not billed): ${counts}.` : `Tokens so far: ${counts}.`;
    }
  };

  const busy = (running: MemoryAgent | undefined) => {
    active = running;
    send.disabled = running !== undefined;
    offline.disabled = running !== undefined;
    if (picker) picker.disabled = running !== undefined;
    newChat.disabled = running !== undefined;
    stop.disabled = running === undefined;
  };

  /** Sends `text`; false if the turn failed or was stopped. */
  const run = async (runner: MemoryAgent, text: string): Promise<boolean> => {
    transcript.user(text);
    busy(runner);
    try {
      await runner.send(text);
      return true;
    } catch {
      // Shown already: the agent reports every failure as an `error` event.
      return false;
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
    const script = OFFLINE_SCRIPTS.find((each) => each.id === picker?.value) ?? OFFLINE_SCRIPTS[0];
    if (!script) return;
    // A scripted Claude behind a fetch: the real SDK runner streams from it, the real tool runs the commands.
    const { agent: demo } = offlineAgent(script, tool, (event) => onEvent(event, true), 30);
    transcript.note(script.intro);
    const between = () => transcript.note('New conversation: Claude knows only what /memories holds.');
    void playConversations(script, demo, (text) => run(demo, text), between);
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
