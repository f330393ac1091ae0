// "Show who wrote each line": the viewed file as a table of lines, each with a gutter cell naming who wrote it (or
// that it was forgotten); when, and which conversation, show on hover and on keyboard focus. The gutter is one tab
// stop, Up and Down move along it (roving tabindex). From tool.blame(path), redrawn whenever the viewer changes.

import type { BlameGap, BlameLine, IndexedDBMemoryTool } from '../../src/index.js';
import { byId, el, messageOf } from '../page/dom.js';
import './blame-gutter.css';

/** Lines shown; the rest are counted. */
const LINES_SHOWN = 1_000;

export interface BlameGutter {
  /** Shows the gutter (true) or the plain viewer (false). */
  show(on: boolean): Promise<void>;
}

export function setupBlameGutter(tool: IndexedDBMemoryTool): BlameGutter {
  const viewer = byId('viewer', HTMLElement);
  const viewerPath = byId('viewer-path', HTMLElement);
  const plain = byId('viewer-group', HTMLElement);
  const view = byId('blame', HTMLElement);
  let on = false;
  let drawn = 0;

  const draw = async () => {
    // The viewer's heading holds the path, or the path and what went wrong, or a prompt to choose a file.
    const heading = viewerPath.textContent ?? '';
    const path = heading.startsWith('/') ? heading.split(': ')[0] : undefined;
    const turn = ++drawn;
    if (!on) return;
    if (path === undefined || path === '') {
      view.replaceChildren(el('p', { className: 'help', text: 'Choose a file to see who wrote each line.' }));
      return;
    }
    let lines: BlameLine[];
    try {
      lines = await tool.blame(path);
    } catch (error) {
      if (turn === drawn) view.replaceChildren(el('p', { className: 'help', text: `No blame for ${path}: ${messageOf(error)}` }));
      return;
    }
    if (turn !== drawn) return; // a newer file or change came meanwhile
    // A redraw (the file changed) keeps the keyboard on the same line, if it was in the gutter.
    const cells = [...view.querySelectorAll<HTMLElement>('.blame-who')];
    const focused = cells.findIndex((cell) => cell === document.activeElement);
    const current = Math.max(0, cells.findIndex((cell) => cell.tabIndex === 0));
    view.replaceChildren(table(path, lines));
    const fresh = [...view.querySelectorAll<HTMLElement>('.blame-who')];
    const keep = fresh[Math.min(focused < 0 ? current : focused, fresh.length - 1)];
    if (keep) rove(fresh, keep, focused >= 0);
  };

  // One tab stop for the whole gutter: Up, Down, Home and End move the stop and the focus along its cells.
  view.addEventListener('keydown', (event) => {
    const cells = [...view.querySelectorAll<HTMLElement>('.blame-who')];
    const at = cells.findIndex((cell) => cell === event.target);
    if (at < 0) return;
    const to = { ArrowUp: at - 1, ArrowDown: at + 1, Home: 0, End: cells.length - 1 }[event.key];
    const next = to === undefined ? undefined : cells[to];
    if (to === undefined) return;
    event.preventDefault(); // at either end too: the page does not scroll instead
    if (next) rove(cells, next, true);
  });

  // The memory panel redraws the viewer on every showing of a file, and on every change to the file shown.
  const follow = new MutationObserver(() => void draw());
  for (const node of [viewer, viewerPath]) follow.observe(node, { childList: true, characterData: true, subtree: true });
  return {
    async show(next) {
      on = next;
      plain.hidden = on;
      view.hidden = !on;
      if (on) await draw();
      else view.replaceChildren();
    },
  };
}

/** Makes `to` the gutter's one tab stop, and focuses it when `focus`. */
function rove(cells: readonly HTMLElement[], to: HTMLElement, focus: boolean): void {
  for (const cell of cells) cell.tabIndex = cell === to ? 0 : -1;
  if (focus) to.focus();
}

function table(path: string, lines: BlameLine[]): HTMLElement {
  const head = el(
    'tr',
    {},
    el('th', { text: 'Line', attrs: { scope: 'col' } }),
    el('th', { text: 'Written by', attrs: { scope: 'col' } }),
    el('th', { text: 'Text', attrs: { scope: 'col' } }),
  );
  const rows = lines.slice(0, LINES_SHOWN).map((line, i) =>
    el(
      'tr',
      {},
      el('td', { className: 'blame-line', text: String(line.line) }),
      el('td', {}, gutterCell(line, i === 0)),
      el('td', { className: 'blame-text', text: line.text }),
    ),
  );
  const caption = el(
    'caption',
    { text: `Who wrote each line of ${path}` },
    el('span', { className: 'blame-keys', attrs: { id: 'blame-keys' }, text: ' (Up and Down move along the gutter)' }),
  );
  const parts: HTMLElement[] = [
    el('table', { className: 'blame' }, caption, el('thead', {}, head), el('tbody', {}, ...rows)),
  ];
  if (lines.length > LINES_SHOWN) parts.push(el('p', { className: 'help', text: `… and ${lines.length - LINES_SHOWN} more lines not shown.` }));
  return el('div', {}, ...parts);
}

/** Why a line's change is gone, in the tip. */
const GONE: Record<BlameGap, string> = {
  forgotten: 'the change that wrote it was forgotten for good',
  cleared: 'the change that wrote it was erased when the history was cleared',
  pruned: 'the change that wrote it is older than the history keeps',
  'too-big': 'a later change was too big for the history to keep what came before',
  unrecorded: 'it was written with the history off',
};

/** The actor (or "forgotten"), always shown; when and which conversation in a tip shown on hover and focus. */
function gutterCell(line: BlameLine, stop: boolean): HTMLElement {
  const why = line.dropped ? (line.why ?? 'unrecorded') : undefined;
  const who = why === 'forgotten' ? 'forgotten' : why ? 'unknown' : (line.actor ?? 'unknown');
  const details: string[] = [];
  if (why) details.push(GONE[why]);
  if (line.at) details.push(line.at.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'medium' }));
  if (line.change !== null) details.push(`change ${line.change}`);
  details.push(line.source !== undefined ? `conversation ${line.source}` : 'no conversation named');
  return el(
    'span',
    {
      className: why === 'forgotten' ? 'blame-who forgotten' : 'blame-who',
      attrs: { tabindex: stop ? '0' : '-1', 'aria-describedby': 'blame-keys' },
    },
    document.createTextNode(who),
    el('span', { className: 'blame-tip', text: `, ${details.join(', ')}` }),
  );
}
