// "What Claude changed": the journal (tool.history()) newest first — who, what, when, which paths — each change
// expandable to a line diff of its files (tool.change()), with Undo per change and for the last one. Kept live
// by tool.subscribe. Everything is written with textContent: paths and contents are memory data.

import { isMemoryToolError } from '../src/index.js';
import type { ChangeDetail, HistoryEntry, IndexedDBMemoryTool } from '../src/index.js';
import { byId, el, focusLost, messageOf } from './dom.js';
import { diffLines, withContext } from './line-diff.js';

/** The empty history's wording for each choice of "Show" (index.html `history-actor`). */
const NOBODY_YET: Partial<Record<string, string>> = { claude: ' by Claude', user: ' by you', expire: ' by expiry' };

/** Changes shown at first; "Show older changes" adds as many again. */
const PAGE = 50;
/** Paths listed on a change's line before "and N more". */
const SHOWN_PATHS = 3;

export function setupHistoryPanel(tool: IndexedDBMemoryTool): { refresh(): Promise<void> } {
  const list = byId('history-list', HTMLOListElement);
  const empty = byId('history-empty', HTMLElement);
  const undoLast = byId('undo-last', HTMLButtonElement);
  const actor = byId('history-actor', HTMLSelectElement);
  const older = byId('history-older', HTMLButtonElement);
  const status = byId('history-status', HTMLElement);
  const alert = byId('history-alert', HTMLElement);
  /** Changes whose diff is open; their details (which never change for an id) are kept while open. */
  const expanded = new Map<number, ChangeDetail | undefined>();
  let limit = PAGE;

  const say = (text: string) => {
    alert.hidden = true;
    alert.textContent = '';
    status.textContent = text;
  };
  const refuse = (text: string) => {
    status.textContent = '';
    alert.textContent = text;
    alert.hidden = false;
  };

  const detailOf = async (id: number): Promise<ChangeDetail | undefined> => {
    const known = expanded.get(id);
    if (known) return known;
    const detail = await tool.change(id);
    if (expanded.has(id)) expanded.set(id, detail);
    return detail;
  };

  const fillDiff = async (id: number, box: HTMLElement) => {
    box.replaceChildren(el('p', { className: 'help', text: 'Loading…' }));
    try {
      const detail = await detailOf(id);
      box.replaceChildren(...(detail ? renderDetail(detail) : [el('p', { className: 'help', text: 'This change is no longer in the history.' })]));
    } catch (error) {
      box.replaceChildren(el('p', { className: 'help', text: `Could not read the change: ${messageOf(error)}` }));
    }
  };

  const undo = async (id: number | undefined, button: HTMLButtonElement) => {
    // Disabling the button drops its focus; it is given back below, once the list is redrawn.
    const hadFocus = document.activeElement === button;
    button.disabled = true;
    try {
      const done = await tool.undo(id);
      say(`Undid change ${done.undoOf ?? id ?? '?'}. The undo is in the history too, so it can be undone.`);
    } catch (error) {
      // The tool's refusals are already plain sentences ("… has changed since. Nothing was changed.").
      refuse(isMemoryToolError(error) ? error.message : `The undo failed: ${messageOf(error)}`);
    } finally {
      button.disabled = false;
      // A refused undo changes nothing and so sends no change event: the list is redrawn here.
      await refresh();
      if (hadFocus && focusLost()) refocus(button);
    }
  };

  /** The button to focus for `key` after a redraw: the same one, or the entry's toggle once its Undo is gone. */
  const focusTarget = (key: string): HTMLElement => {
    const id = key.replace(/^\w+-/, '');
    return (
      list.querySelector<HTMLElement>(`[data-focus-key="${key}"]`) ??
      list.querySelector<HTMLElement>(`[data-focus-key="toggle-${id}"]`) ??
      undoLast
    );
  };

  /** Focus back on `button`, or, when a redraw replaced it, on what stands for it now. */
  const refocus = (button: HTMLButtonElement) => {
    const key = button.dataset.focusKey;
    (button.isConnected || key === undefined ? button : focusTarget(key)).focus();
  };

  const renderEntry = (entry: HistoryEntry): HTMLElement => {
    const head = el(
      'p',
      { className: 'change-head', attrs: { id: `change-${entry.id}-head` } },
      el('span', { className: `who actor-${cssName(entry.actor)}`, text: actorName(entry.actor) }),
      el('span', { className: 'what', text: ` ${describe(entry)}` }),
      ...(entry.undone ? [el('span', { className: 'tag', text: ' undone' })] : []),
      ...(entry.forgotten ? [el('span', { className: 'tag', text: ' partly forgotten' })] : []),
    );
    const when = el('time', { className: 'when', text: formatWhen(entry.at), attrs: { datetime: entry.at.toISOString() } });
    when.title = entry.at.toString();
    const paths = el('p', { className: 'change-paths', text: shownPaths(entry) });
    const box = el('div', { className: 'diff', attrs: { id: `change-${entry.id}-diff`, 'aria-label': `Lines changed by change ${entry.id}` } });
    const open = expanded.has(entry.id);
    box.hidden = !open;
    const toggle = el('button', {
      text: 'Show changes',
      attrs: { type: 'button', 'aria-expanded': String(open), 'aria-controls': box.id, 'aria-describedby': head.id, 'data-focus-key': `toggle-${entry.id}` },
    });
    toggle.addEventListener('click', () => {
      const opening = !expanded.has(entry.id);
      toggle.setAttribute('aria-expanded', String(opening));
      box.hidden = !opening;
      if (opening) {
        expanded.set(entry.id, undefined);
        void fillDiff(entry.id, box);
      } else expanded.delete(entry.id);
    });
    const buttons = el('div', { className: 'buttons' }, toggle);
    if (entry.undoable) {
      const button = el('button', {
        text: 'Undo',
        attrs: { type: 'button', 'aria-describedby': head.id, 'data-focus-key': `undo-${entry.id}` },
      });
      button.addEventListener('click', () => void undo(entry.id, button));
      buttons.append(button);
    }
    if (open) void fillDiff(entry.id, box);
    return el(
      'li',
      { className: `change${entry.undone ? ' undone' : ''}`, attrs: { 'data-id': String(entry.id) } },
      el('div', { className: 'change-line' }, head, when),
      paths,
      buttons,
      box,
    );
  };

  let running: Promise<void> | undefined;
  let again = false;
  /** Redraws the list; calls during a redraw make one more redraw after it, not one each. */
  const refresh = async (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await redraw();
      } while (again);
    })().finally(() => {
      running = undefined;
    });
    return running;
  };

  const redraw = async () => {
    let entries: HistoryEntry[];
    try {
      entries = await tool.history({ limit, ...(actor.value === '' ? {} : { actor: actor.value }) });
    } catch (error) {
      refuse(`Could not read the history: ${messageOf(error)}`);
      return;
    }
    const active = document.activeElement;
    const focusKey = active instanceof HTMLElement && list.contains(active) ? active.dataset.focusKey : undefined;
    for (const id of expanded.keys()) if (!entries.some((entry) => entry.id === id)) expanded.delete(id);
    list.replaceChildren(...entries.map(renderEntry));
    empty.hidden = entries.length > 0;
    // With a filter, say whose changes there are none of: the history may well hold others.
    empty.textContent = `No changes${NOBODY_YET[actor.value] ?? ''} yet.`;
    older.hidden = entries.length < limit;
    // Keep the keyboard where it was.
    if (focusKey) focusTarget(focusKey).focus();
  };

  undoLast.addEventListener('click', () => void undo(undefined, undoLast));
  actor.addEventListener('change', () => {
    limit = PAGE;
    void refresh();
  });
  older.addEventListener('click', () => {
    const shown = list.children.length;
    limit += PAGE;
    void refresh().then(() => {
      // The button hides itself once nothing older is left, which drops its focus: the first entry it added (or
      // the last one) takes it, so the keyboard goes on where the new entries begin.
      if (!focusLost()) return;
      const entry = list.children[shown] ?? list.lastElementChild;
      entry?.querySelector<HTMLElement>('[data-focus-key]')?.focus();
    });
  });
  tool.subscribe((event) => {
    // What was forgotten must leave the screen too: open diffs are read again, not shown from what was kept.
    if (event.changes.some((change) => change.type === 'forget' || change.type === 'history-cleared')) {
      for (const id of expanded.keys()) expanded.set(id, undefined);
    }
    void refresh();
  });
  return { refresh };
}

function renderDetail(detail: ChangeDetail): HTMLElement[] {
  const out: HTMLElement[] = [];
  for (const move of detail.moves) out.push(el('p', { className: 'diff-move', text: `Moved ${move.from} → ${move.to}` }));
  for (const file of detail.files) {
    const kind =
      file.before === null && file.after === null
        ? 'contents no longer kept in the history'
        : file.before === null
          ? 'new file'
          : file.after === null
            ? 'deleted'
            : 'changed';
    const lines = withContext(diffLines(file.before, file.after));
    const pre = el('pre', { className: 'diff-lines', attrs: { 'aria-label': `Diff of ${file.path}` } });
    for (const line of lines) {
      if ('skipped' in line) {
        pre.append(el('span', { className: 'line skipped', text: `  … ${line.skipped} unchanged line${line.skipped === 1 ? '' : 's'}\n` }));
      } else if (line.type === 'removed') {
        pre.append(el('del', { className: 'line removed', text: `- ${line.text}\n` }));
      } else if (line.type === 'added') {
        pre.append(el('ins', { className: 'line added', text: `+ ${line.text}\n` }));
      } else {
        pre.append(el('span', { className: 'line same', text: `  ${line.text}\n` }));
      }
    }
    const changed = lines.some((line) => 'type' in line && line.type !== 'same');
    if (!changed && file.before !== file.after && file.before !== null && file.after !== null) {
      pre.append(el('span', { className: 'line skipped', text: '  (only the newline at the end changed)\n' }));
    }
    out.push(el('div', { className: 'diff-file' }, el('p', { className: 'diff-path', text: `${file.path} — ${kind}` }), pre));
  }
  if (out.length === 0) out.push(el('p', { className: 'help', text: 'No file contents changed (folders only).' }));
  return out;
}

/** Who, in words: the journal's actor names are `claude`, `user` and `expire`; any other is shown as it is. */
function actorName(actor: string): string {
  return actor === 'claude' ? 'Claude' : actor === 'user' ? 'You' : actor === 'expire' ? 'Expiry' : actor;
}

/** What, in words, by the command journaled. */
function describe(entry: HistoryEntry): string {
  const n = entry.paths.length;
  switch (entry.command) {
    case 'create':
      return 'wrote a file';
    case 'str_replace':
      return 'edited a file';
    case 'insert':
      return 'inserted lines';
    case 'delete':
      return 'deleted';
    case 'rename':
      return 'moved';
    case 'import':
      return `imported a bundle (${n} path${n === 1 ? '' : 's'})`;
    case 'expire':
      return `deleted ${n} unused file${n === 1 ? '' : 's'}`;
    case 'undo':
      return entry.undoOf === undefined ? 'undid a change' : `undid change ${entry.undoOf}`;
    default:
      return entry.command;
  }
}

function shownPaths(entry: HistoryEntry): string {
  const joiner = entry.command === 'rename' ? ' → ' : ', ';
  const shown = entry.paths.slice(0, SHOWN_PATHS).join(joiner);
  const more = entry.paths.length - SHOWN_PATHS;
  return `#${entry.id} · ${shown}${more > 0 ? ` and ${more} more` : ''}`;
}

/** Today's changes by the time, older ones with the date. */
function formatWhen(at: Date): string {
  const today = new Date().toDateString() === at.toDateString();
  return today ? at.toLocaleTimeString() : at.toLocaleString();
}

function cssName(actor: string): string {
  return /^[a-z]+$/.test(actor) ? actor : 'other';
}
