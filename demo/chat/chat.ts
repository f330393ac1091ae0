// The chat panel: Send / Stop / Offline demo / New conversation, wired to createMemoryAgent. The agent is made
// from the connection panel on demand and remade (keeping the conversation) when the connection changes; its code
// (and the SDK) loads with the first message or Offline demo. A message that was not sent goes back in the box.

import type { IndexedDBMemoryTool } from '../../src/index.js';
import type { MemoryAgent, MemoryAgentEvent } from '../../src/entries/agent.js';
import type { Connection, ConnectionPanel } from './connection.js';
import { byId, messageOf } from '../page/dom.js';
import { loadAgent, loadFailureWords, loadOfflineDemo, loadWrittenFile } from '../page/lazy-code.js';
import type { MemoryPanel } from '../memory/memory-panel.js';
import { OFFLINE_SCRIPT_CHOICES } from '../offline-scripts/catalog.js';
import type { RecordingFetch, Route } from './send-failure.js';
import { storageFailure } from '../page/storage-failure.js';
import type { StorageFailure } from '../page/storage-failure.js';
import { createTranscript } from './transcript.js';

export function setupChat(
  tool: IndexedDBMemoryTool,
  connection: ConnectionPanel,
  memory: Pick<MemoryPanel, 'open'>,
  onStorageFailure: (failure: StorageFailure) => void,
): void {
  const form = byId('chat-form', HTMLFormElement);
  const message = byId('message', HTMLTextAreaElement);
  const send = byId('send', HTMLButtonElement);
  const stop = byId('stop', HTMLButtonElement);
  const offline = byId('offline-demo', HTMLButtonElement);
  // The script picker is optional: without it, the Offline demo plays the first script.
  const picked = document.getElementById('offline-script');
  const picker = picked instanceof HTMLSelectElement ? picked : undefined;
  const newChat = byId('new-chat', HTMLButtonElement);
  const usage = byId('usage', HTMLElement);
  const transcript = createTranscript(byId('transcript', HTMLElement), () => void playOffline());
  for (const { id, label } of OFFLINE_SCRIPT_CHOICES) picker?.append(new Option(label, id));
  // What can work now comes first, on the screen and in the Tab order alike: Send once connected, the Offline demo
  // before. Moved in the DOM (not by CSS `order`), keeping the focus where it was.
  connection.onChange((connected) => {
    const [first, second] = connected ? [send, offline] : [offline, send];
    const row = first.parentElement;
    if (!row || row.firstElementChild === first) return;
    const focused = document.activeElement;
    row.prepend(first, second);
    if (focused instanceof HTMLElement && focused !== document.activeElement) focused.focus();
  });

  let agent: MemoryAgent | undefined;
  let active: MemoryAgent | undefined;
  /** Loading code, or an Offline demo between its conversations: no other message or script starts meanwhile. */
  let held = false;
  /** The conversation of an agent dropped by a change of connection, for the next one to go on with. */
  let conversation: MemoryAgent['messages'] = [];
  let madeFor = '';
  let route: Route = { ownKey: false, devProxy: false };
  /** The connection the agent was made with: what a turn tells about its key is reported for it. */
  let madeWith: Connection | undefined;
  /** The requests of the real agents, so that a failure names the URL it tried. */
  let requests: RecordingFetch | undefined;

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

  const paint = () => {
    const busy = active !== undefined || held;
    send.disabled = busy;
    offline.disabled = busy;
    if (picker) picker.disabled = busy;
    newChat.disabled = busy;
    stop.disabled = active === undefined;
  };
  const busy = (running: MemoryAgent | undefined) => {
    active = running;
    paint();
  };
  const hold = (holding: boolean) => {
    held = holding;
    paint();
  };

  /** A failed turn told with what to do; an unanswered request is probed first, to say why. */
  const tell = async (error: unknown, scripted: boolean) => {
    const [{ describeAgentError }, words] = await Promise.all([loadAgent(), loadFailureWords()]);
    const { explainFailure, needsProbe, probe } = words;
    const description = describeAgentError(error);
    // A 401 in a conversation says as much about the key as Connect's check would.
    if (!scripted && madeWith && description.kind === 'auth') connection.report(madeWith, 'refused', description.message);
    if (scripted) {
      transcript.problem({ kind: description.kind, title: description.title, lines: [description.message] });
      return;
    }
    const tried = requests?.last();
    const cause = error instanceof Error ? error.cause : undefined;
    const card = transcript.problem(explainFailure(description, cause, tried, route));
    if (needsProbe(description)) card.update(await probe(tried));
  };

  /** Sends `text`; false if the turn failed or was stopped. Unless `scripted`, unsent text goes back in the box. */
  const run = async (runner: MemoryAgent, text: string, scripted: boolean): Promise<boolean> => {
    transcript.user(text);
    busy(runner);
    const before = runner.messages.length;
    try {
      await runner.send(text);
      if (!scripted && madeWith) connection.report(madeWith, 'working');
      return true;
    } catch (error) {
      void tell(error, scripted).catch(() => {
        transcript.problem({ kind: 'other', title: 'Something went wrong', lines: [messageOf(error)] });
      });
      // The conversation as it was: the message never reached Claude, so it waits in the box to be sent again.
      if (!scripted && runner.messages.length === before && message.value.trim() === '') message.value = text;
      return false;
    } finally {
      busy(undefined);
      message.focus();
    }
  };

  /** The agent for the connection as it is now (its code loaded first); the conversation carries over a change. */
  const currentAgent = async (): Promise<MemoryAgent | undefined> => {
    const choice = connection.read();
    if (!choice.ok) {
      transcript.problem({ kind: 'connection', title: choice.title, lines: [choice.summary], offerOffline: true });
      return undefined;
    }
    const [{ createMemoryAgent, describeAgentError }, words] = await Promise.all([loadAgent(), loadFailureWords()]);
    requests ??= words.recordingFetch();
    // Held in this closure only, to tell whether the fields changed since the agent was made.
    const signature = JSON.stringify([choice.apiKey, choice.baseURL, choice.model, choice.contextManagement]);
    if (agent && signature === madeFor) return agent;
    if (agent) conversation = agent.messages;
    madeFor = signature;
    madeWith = choice;
    route = { ownKey: choice.apiKey !== undefined, devProxy: choice.devProxy };
    try {
      agent = createMemoryAgent({
        tool,
        model: choice.model,
        contextManagement: choice.contextManagement,
        ...(choice.apiKey !== undefined ? { apiKey: choice.apiKey } : {}),
        ...(choice.baseURL !== undefined ? { baseURL: choice.baseURL } : {}),
        fetch: requests.fetch,
        messages: conversation,
        onEvent,
      });
    } catch (error) {
      agent = undefined;
      const { title, message: words } = describeAgentError(error);
      transcript.problem({ kind: 'connection', title, lines: [words] });
      return undefined;
    }
    return agent;
  };

  /** The first message or script loads the SDK: without a network (and not fetched before) that fails. */
  const codeMissing = (what: string, error: unknown) =>
    transcript.problem({
      kind: 'network',
      title: `${what} did not load`,
      lines: [
        `The page fetches that code on first use, or when it is idle: ${messageOf(error)}`,
        'Reconnect to the network and reload the page.',
      ],
    });

  const sendTyped = async (text: string) => {
    let runner: MemoryAgent | undefined;
    hold(true);
    try {
      runner = await currentAgent();
    } catch (error) {
      codeMissing('The code for conversations', error);
    } finally {
      hold(false);
    }
    // Not sent: the text stays in the box.
    if (!runner) return;
    message.value = '';
    // As after a script: the file Claude wrote in this turn opens, its new lines marked (if that code is here).
    const written = await loadWrittenFile().catch(() => undefined);
    const mark = await written?.historyMark(tool).catch(() => undefined);
    await run(runner, text, false);
    await written?.openWritten(tool, memory, mark, transcript, 'Claude');
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = message.value.trim();
    if (text === '' || active || held) return;
    connection.close();
    void sendTyped(text);
  });

  message.addEventListener('keydown', (event) => {
    // Enter sends, Shift+Enter is a new line; an IME composing text owns Enter.
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      form.requestSubmit();
    }
  });

  stop.addEventListener('click', () => active?.stop());

  /** Plays the chosen script; at its end the file it wrote opens in the Memory panel, what it changed marked. */
  const playOffline = async () => {
    if (active || held) return;
    hold(true);
    try {
      let code: Awaited<ReturnType<typeof loadOfflineDemo>>;
      let written: Awaited<ReturnType<typeof loadWrittenFile>>;
      try {
        [code, written] = await Promise.all([loadOfflineDemo(), loadWrittenFile()]);
      } catch (error) {
        codeMissing('The Offline demo', error);
        return;
      }
      const script = code.OFFLINE_SCRIPTS.find((each) => each.id === picker?.value) ?? code.OFFLINE_SCRIPTS[0];
      if (!script) return;
      // Where the history stands, so that what the script writes can be told from what was there.
      const mark = await written.historyMark(tool).catch(() => undefined);
      // A scripted Claude behind a fetch: the real SDK runner streams from it, the real tool runs the commands.
      const { agent: demo } = code.offlineAgent(script, tool, (event) => onEvent(event, true), 30);
      transcript.note(script.intro);
      const between = () => transcript.newConversation('New conversation: Claude knows only what /memories holds.');
      const done = await code.playConversations(script, demo, (text) => run(demo, text, true), between);
      await written.openWritten(tool, memory, done ? mark : undefined, transcript, 'the script');
    } finally {
      hold(false);
    }
  };

  offline.addEventListener('click', () => void playOffline());

  newChat.addEventListener('click', () => {
    if (active || held) return;
    agent?.reset();
    conversation = [];
    transcript.clear();
    usage.textContent = '';
    transcript.note('New conversation. The memory stays.');
  });
}
