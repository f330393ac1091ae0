// The Sync panel: Connect/Disconnect (a MemorySync of /memories with the remote the fields describe), Sync now,
// Stop/Start, the status line, and the lists the person acts on: conflicts, skipped files, deletes held back.
// Every failure is shown here, never thrown: a background pass's in the status line, a button's in the alert.

import { MEMORY_ROOT } from '../../src/index.js';
import type { IndexedDBMemoryTool } from '../../src/index.js';
import { createMemorySync } from '../../src/entries/sync.js';
import type { MemorySync, SyncReport, SyncStatus } from '../../src/entries/sync.js';
import type { ConnectionPanel } from '../chat/connection.js';
import { byId, focusLost, messageOf } from '../page/dom.js';
import { setupSyncLists } from './sync-lists.js';
import { setupSyncRemoteForm } from './sync-remote-form.js';

/** Background passes this often; a local change brings one sooner (the library's debounce). */
const INTERVAL_MS = 15_000;

interface Connected {
  sync: MemorySync;
  where: string;
  unsubscribe(): void;
}

export function setupSyncPanel(tool: IndexedDBMemoryTool, connection: ConnectionPanel): void {
  const form = setupSyncRemoteForm(connection);
  const connect = byId('sync-connect', HTMLButtonElement);
  const now = byId('sync-now', HTMLButtonElement);
  const pause = byId('sync-pause', HTMLButtonElement);
  const line = byId('sync-status', HTMLElement);
  const facts = byId('sync-facts', HTMLElement);
  const alert = byId('sync-alert', HTMLElement);
  const deleteHeld = byId('sync-delete-held', HTMLButtonElement);
  const keepHeld = byId('sync-keep-held', HTMLButtonElement);

  let current: Connected | undefined;
  let paused = false;
  /** The live line's state sentence, and what the person's last action did (kept until that sentence changes). */
  let sentence = 'Not connected.';
  let note = '';

  const say = (text: string) => {
    // The same text set again would be read out again by some screen readers.
    if (line.textContent !== text) line.textContent = text;
  };
  const paintLine = () => say(note === '' ? sentence : `${sentence} ${note}`);
  const showAlert = (text: string) => {
    alert.textContent = text;
    alert.hidden = false;
  };
  const hideAlert = () => {
    alert.hidden = true;
    alert.textContent = '';
  };
  /** Focus left on <body> (its button disabled or gone) goes to the status line, which says what happened. */
  const keepFocus = () => {
    if (focusLost()) line.focus();
  };

  const settle = async (path: string, copy: string, keep: 'current' | 'copy'): Promise<void> => {
    const mine = current;
    if (!mine) return;
    hideAlert();
    try {
      await mine.sync.resolve(copy, keep);
      if (current !== mine) return;
      note = keep === 'copy' ? `Kept the copy's version of ${path}.` : `Kept the current ${path}; the copy is deleted.`;
      paintLine();
    } catch (error) {
      showAlert(`The conflict in ${path} is not settled: ${messageOf(error)}`);
    }
  };

  const drawLists = setupSyncLists({ resolve: settle, focusLost: keepFocus });

  const render = (status: SyncStatus) => {
    const mine = current;
    if (!mine) return;
    const next = stateSentence(status, mine.where);
    // A pass under way keeps the sentence: background passes every 15 s would otherwise be read out each time.
    if (next !== undefined && next !== sentence) {
      sentence = next;
      note = '';
    }
    paintLine();
    facts.textContent = factsOf(status);
    pause.textContent = paused ? 'Start syncing' : 'Stop syncing';
    drawLists(status);
  };

  const setConnected = (connected: Connected | undefined) => {
    current?.unsubscribe();
    current?.sync.close();
    current = connected;
    paused = false;
    form.lock(connected !== undefined);
    connect.textContent = connected ? 'Disconnect' : 'Connect';
    now.hidden = connected === undefined;
    pause.hidden = connected === undefined;
    if (!connected) {
      sentence = 'Not connected.';
      note = '';
      paintLine();
      facts.textContent = '';
      drawLists(undefined);
    }
  };

  connect.addEventListener('click', () => {
    hideAlert();
    if (current) {
      const where = current.where;
      setConnected(undefined);
      note = `Disconnected from ${where}; the files stay here.`;
      paintLine();
      return;
    }
    let made: ReturnType<typeof form.make>;
    let sync: MemorySync;
    try {
      made = form.make();
      sync = createMemorySync(tool, { remote: made.remote, mount: MEMORY_ROOT, interval: INTERVAL_MS });
    } catch (error) {
      showAlert(`Could not connect: ${withoutNotConnected(messageOf(error))}`);
      return;
    }
    // The first pass starts at once; the status line follows it.
    const connected: Connected = { sync, where: made.where, unsubscribe: () => undefined };
    setConnected(connected);
    sentence = `Connecting to ${made.where}…`;
    note = '';
    connected.unsubscribe = sync.subscribe(render);
    render(sync.status());
  });

  /** A pass the person asked for; its failure is already in the status line, anything else goes to the alert. */
  const personPass = (button: HTMLButtonElement, pass: (sync: MemorySync) => Promise<SyncReport>) => {
    const mine = current;
    if (!mine) return;
    hideAlert();
    button.disabled = true;
    pass(mine.sync)
      .then(
        (report) => {
          if (current !== mine) return;
          // What it moved is in the facts below; the sentence says what is left open.
          note = 'Synced just now.';
          paintLine();
        },
        (error: unknown) => {
          if (current !== mine) return;
          if (mine.sync.status().error?.message !== messageOf(error)) showAlert(`Sync failed: ${messageOf(error)}`);
        },
      )
      .finally(() => {
        button.disabled = false;
        keepFocus();
      });
  };

  now.addEventListener('click', () => personPass(now, (sync) => sync.syncNow()));
  deleteHeld.addEventListener('click', () => personPass(deleteHeld, (sync) => sync.syncNow({ confirmDeletes: true })));
  keepHeld.addEventListener('click', () =>
    personPass(keepHeld, async (sync) => {
      // A baseline forgotten deletes nothing: the next pass copies each held file back to the side that lost it.
      await sync.resetBaseline();
      return sync.syncNow();
    }),
  );

  pause.addEventListener('click', () => {
    const mine = current;
    if (!mine) return;
    paused = !paused;
    if (paused) mine.sync.stop();
    else mine.sync.start();
    render(mine.sync.status());
  });
}

/**
 * The state in a sentence, then what the lists below hold, counted from them (so it never says "up to date" above a
 * listed conflict); undefined while a pass runs (the sentence before it stays).
 */
function stateSentence(status: SyncStatus, where: string): string | undefined {
  const state = stateAlone(status, where);
  if (state === undefined) return undefined;
  const open = openItems(status);
  return open.length === 0 ? state : `${state} Listed below: ${open.join('; ')}.`;
}

function stateAlone(status: SyncStatus, where: string): string | undefined {
  const error = status.error;
  switch (status.state) {
    case 'syncing':
      return undefined;
    case 'other-tab':
      return `Another tab is syncing with ${where}; this one shows its result.`;
    case 'stopped':
      return `Stopped: no background syncs with ${where}. Sync now still works; Start syncing resumes them.`;
    case 'error': {
      if (!error) return `Sync with ${where} failed.`;
      const retry = error.retryAt
        ? `Trying again at ${error.retryAt.toLocaleTimeString()}.`
        : error.kind === 'auth'
          ? 'Not tried again by itself: Disconnect, correct the credentials and Connect again.'
          : 'Not tried again by itself: press Sync now to try again.';
      return `Sync with ${where} failed (${error.kind}): ${error.message} ${retry}`;
    }
    case 'idle':
      if (status.lastSync === null) return `Connected to ${where}; not synced yet.`;
      if (status.pending > 0) return `Connected to ${where}; ${plural(status.pending, 'change')} here not sent yet.`;
      return openItems(status).length > 0 ? `Synced with ${where}.` : `Up to date with ${where}.`;
  }
}

/** What the lists hold and waits for the person, in words; empty when they are empty. */
function openItems(status: SyncStatus): string[] {
  const items = [
    status.conflicts.length > 0 ? `${plural(status.conflicts.length, 'conflict')} to settle` : '',
    status.held.length > 0 ? `${plural(status.held.length, 'delete')} held back` : '',
    status.skipped.length > 0 ? `${plural(status.skipped.length, 'file')} skipped` : '',
  ];
  return items.filter((item) => item !== '');
}

/**
 * Last sync and what it moved: not read out, as it changes with every background pass. Conflicts and changes
 * waiting are the status line's (counted from the lists), so each is said once.
 */
function factsOf(status: SyncStatus): string {
  const parts = [
    status.state === 'syncing' ? 'Syncing now…' : '',
    status.lastSync ? `Last sync ${status.lastSync.toLocaleTimeString()}` : 'Not synced yet',
    status.lastReport ? countsOf(status.lastReport) : '',
  ];
  return `${parts.filter((part) => part !== '').join(' · ')}.`;
}

/** What a pass moved. Its conflicts are left out: the list and the status line say what is still open. */
function countsOf(report: SyncReport): string {
  return [`${report.pulled.length} received`, `${report.pushed.length} sent`, `${report.deleted.length} deleted`].join(', ');
}

/** The connection's own "Not connected: …" made a plain sentence: the status line says "Not connected." once. */
function withoutNotConnected(reason: string): string {
  return reason.replace(/Not connected: (\p{L})/gu, (_match, first: string) => first.toUpperCase());
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
