// "What Claude changed": the journal (tool.history()) newest first — who, what, when, which paths — each change
// expandable to a capped line diff of its files (tool.change()), with Undo where it applies now (history-undoable.ts)
// and for the last change. Kept live by tool.subscribe. Everything is written with textContent: paths and contents
// are memory data.

import { isMemoryToolError } from '../../src/index.js';
import type { ChangeDetail, HistoryEntry, IndexedDBMemoryTool } from '../../src/index.js';
import { byId, el, focusLost, messageOf } from '../page/dom.js';
import { keepScrollPlace, watchNewEntries } from './history-scroll.js';
import { blockedUndos, lastUndoTarget } from './history-undoable.js';
import { JOURNAL_PATHS, NOBODY_YET, actorName, cssName, describe, formatWhen, noUndoReason, shownPaths } from './history-words.js';

/** Changes shown at first; "Show older changes" adds as many again. */
const PAGE = 50;

/** The diff's code (history-diff.ts, line-diff.ts, their CSS): loaded at the first "Show changes", or when idle. */
export const loadHistoryDiff = (): Promise<typeof import('./history-diff.js')> => import('./history-diff.js');

export function setupHistoryPanel(tool: IndexedDBMemoryTool): { refresh(): Promise<void> } {
  const list = byId('history-list', HTMLOListElement);
  const empty = byId('history-empty', HTMLElement);
  const undoLast = byId('undo-last', HTMLButtonElement);
  const actor = byId('history-actor', HTMLSelectElement);
  const older = byId('history-older', HTMLButtonElement);
  const status = byId('history-status', HTMLElement);
  const alert = byId('history-alert', HTMLElement);
  const fresh = watchNewEntries(list, byId('history-new', HTMLButtonElement));
  /** Changes whose diff is open; their details (which never change for an id) are kept while open. */
  const expanded = new Map<number, ChangeDetail | undefined>();
  /** The drawn diff of each open change, moved into the entry's new box on a redraw rather than diffed again. */
  const drawn = new Map<number, HTMLElement[]>();
  /** Every path a change touched, for the changes whose `paths` may not name them all (read once, by `change()`). */
  const touched = new Map<number, string[]>();
  let limit = PAGE;

  const retire = () => {
    alert.hidden = true;
    alert.textContent = '';
  };
  const say = (text: string) => {
    retire();
    status.textContent = text;
  };
  const refuse = (text: string) => {
    status.textContent = '';
    alert.textContent = text;
    alert.hidden = false;
  };
  // A refusal answers one Undo. Whatever the person does next elsewhere (an export, an import, an expiry, a command)
  // or any change to the memory retires it, so it is never read as that action's outcome. The list's own buttons
  // (open a diff to see why, or another Undo, which says its own outcome) leave it.
  const elsewhere = (event: Event) => event.target instanceof Node && !list.contains(event.target);
  document.addEventListener('click', (event) => {
    if (elsewhere(event) && event.target instanceof Element && event.target.closest('button')) retire();
  }, { capture: true });
  document.addEventListener('submit', retire, { capture: true });
  document.addEventListener('change', (event) => {
    if (elsewhere(event) && (event.target instanceof HTMLSelectElement || event.target instanceof HTMLInputElement)) retire();
  }, { capture: true });

  const detailOf = async (id: number): Promise<ChangeDetail | undefined> => {
    const known = expanded.get(id);
    if (known) return known;
    const detail = await tool.change(id);
    if (expanded.has(id)) expanded.set(id, detail);
    return detail;
  };

  const fillDiff = async (id: number, box: HTMLElement) => {
    const known = drawn.get(id);
    if (known) {
      box.replaceChildren(...known);
      return;
    }
    box.replaceChildren(el('p', { className: 'help', text: 'Loading…' }));
    try {
      const [detail, { renderDetail }] = await Promise.all([detailOf(id), loadHistoryDiff()]);
      const nodes = detail ? renderDetail(detail) : [el('p', { className: 'help', text: 'This change is no longer in the history.' })];
      if (detail && expanded.has(id)) drawn.set(id, nodes);
      box.replaceChildren(...nodes);
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
      (undoLast.disabled ? status : undoLast)
    );
  };

  /** Focus back on `button`, or, when a redraw replaced or disabled it, on what stands for it now. */
  const refocus = (button: HTMLButtonElement) => {
    const key = button.dataset.focusKey;
    if (key !== undefined && !button.isConnected) focusTarget(key).focus();
    else (button.disabled ? status : button).focus();
  };

  const renderEntry = (entry: HistoryEntry, blockers: readonly number[] | undefined): HTMLElement => {
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
    const box = el('div', { className: 'diff', attrs: { id: `change-${entry.id}-diff`, role: 'group', 'aria-label': `Lines changed by change ${entry.id}` } });
    const open = expanded.has(entry.id);
    box.hidden = !open;
    const toggle = el('button', {
      attrs: { type: 'button', 'aria-controls': box.id, 'aria-describedby': head.id, 'data-focus-key': `toggle-${entry.id}` },
    });
    const show = (opened: boolean) => {
      toggle.textContent = opened ? 'Hide changes' : 'Show changes';
      toggle.setAttribute('aria-expanded', String(opened));
      box.hidden = !opened;
    };
    show(open);
    toggle.addEventListener('click', () => {
      const opening = !expanded.has(entry.id);
      show(opening);
      if (opening) {
        expanded.set(entry.id, undefined);
        void fillDiff(entry.id, box);
      } else {
        expanded.delete(entry.id);
        drawn.delete(entry.id);
      }
    });
    const buttons = el('div', { className: 'buttons' }, toggle);
    const reason = noUndoReason(entry, blockers);
    if (reason) {
      buttons.append(el('span', { className: 'undo-note', text: reason }));
    } else if (entry.undoable) {
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

  /** Whether `entry.paths` may leave out paths it touched: cut by the journal, or a sync's moves (it names their ends only). */
  const partial = (entry: HistoryEntry, byId: ReadonlyMap<number, HistoryEntry>): boolean => {
    if (entry.paths.length >= JOURNAL_PATHS || entry.command === 'sync') return true;
    if (entry.command !== 'undo' || entry.undoOf === undefined) return false;
    const target = byId.get(entry.undoOf);
    return target === undefined || partial(target, byId);
  };

  const pathsOf = async (entry: HistoryEntry, byId: ReadonlyMap<number, HistoryEntry>): Promise<readonly string[]> => {
    if (!partial(entry, byId)) return entry.paths;
    const known = touched.get(entry.id);
    if (known) return known;
    const detail = await tool.change(entry.id);
    const paths = [...entry.paths, ...(detail?.files.map((file) => file.path) ?? []), ...(detail?.moves.flatMap((move) => [move.from, move.to]) ?? [])];
    touched.set(entry.id, paths);
    return paths;
  };

  /** The changes to show, and every change from the oldest shown to the newest (for the Undo checks). */
  const load = async (): Promise<{ shown: HistoryEntry[]; all: HistoryEntry[]; complete: boolean }> => {
    const shown = await tool.history({ limit, ...(actor.value === '' ? {} : { actor: actor.value }) });
    if (actor.value === '') return { shown, all: shown, complete: shown.length < limit };
    // Ids count up, so the newest id less the oldest shown bounds how many changes lie between.
    const newest = (await tool.history({ limit: 1 }))[0]?.id ?? 0;
    const span = Math.max(PAGE, newest - (shown.at(-1)?.id ?? newest) + 1);
    const all = await tool.history({ limit: span });
    return { shown, all, complete: all.length < span };
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
    let loaded: Awaited<ReturnType<typeof load>>;
    let blocked: Map<number, number[]>;
    try {
      loaded = await load();
      const byId = new Map(loaded.all.map((entry) => [entry.id, entry]));
      const facts = [];
      for (const entry of loaded.all) facts.push({ ...entry, paths: await pathsOf(entry, byId) });
      blocked = blockedUndos(facts);
    } catch (error) {
      refuse(`Could not read the history: ${messageOf(error)}`);
      return;
    }
    const { shown, all, complete } = loaded;
    const active = document.activeElement;
    const inList = active instanceof HTMLElement && list.contains(active) ? active : undefined;
    const focusKey = inList?.dataset.focusKey;
    const hadUndoLast = active === undoLast;
    for (const id of expanded.keys()) {
      if (shown.some((entry) => entry.id === id)) continue;
      expanded.delete(id);
      drawn.delete(id);
    }
    const place = keepScrollPlace(list);
    list.replaceChildren(...shown.map((entry) => renderEntry(entry, blocked.get(entry.id))));
    place.restore();
    fresh.drawn(shown.map((entry) => entry.id));
    empty.hidden = shown.length > 0;
    // With a filter, say whose changes there are none of: the history may well hold others.
    empty.textContent = `No changes${NOBODY_YET[actor.value] ?? ''} yet.`;
    older.hidden = shown.length < limit;
    // "Undo last change" is offered only when the change it would take back can be undone now.
    const target = lastUndoTarget(all);
    undoLast.disabled = target ? !target.undoable || blocked.has(target.id) : complete;
    // Keep the keyboard where it was, and the list where `place` put it: scrolling to the focus would lose the place
    // read (and, reaching the top, the count of new changes above it).
    if (focusKey) focusTarget(focusKey).focus({ preventScroll: true });
    // An open diff's lines are moved into the new entry, not drawn again: the same element takes the focus back.
    else if (inList?.isConnected && focusLost()) inList.focus({ preventScroll: true });
    else if (hadUndoLast && focusLost()) status.focus();
  };

  undoLast.addEventListener('click', () => void undo(undefined, undoLast));
  actor.addEventListener('change', () => {
    limit = PAGE;
    fresh.reset();
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
      drawn.clear();
      touched.clear();
    }
    retire();
    void refresh();
  });
  return { refresh };
}
