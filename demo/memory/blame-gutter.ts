// "Show who wrote each line": the viewed file as a table of lines, each with a gutter cell naming who wrote it;
// when, and which conversation, show on hover and on keyboard focus (and are read by screen readers with the
// row). From tool.blame(path); loaded with the Memory pane's options, redrawn whenever the viewer changes.

import type { BlameLine, IndexedDBMemoryTool } from '../../src/index.js';
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
    view.replaceChildren(table(path, lines));
  };

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

function table(path: string, lines: BlameLine[]): HTMLElement {
  const head = el(
    'tr',
    {},
    el('th', { text: 'Line', attrs: { scope: 'col' } }),
    el('th', { text: 'Written by', attrs: { scope: 'col' } }),
    el('th', { text: 'Text', attrs: { scope: 'col' } }),
  );
  const rows = lines.slice(0, LINES_SHOWN).map((line) =>
    el(
      'tr',
      {},
      el('td', { className: 'blame-line', text: String(line.line) }),
      el('td', {}, gutterCell(line)),
      el('td', { className: 'blame-text', text: line.text }),
    ),
  );
  const parts: HTMLElement[] = [
    el('table', { className: 'blame' }, el('caption', { text: `Who wrote each line of ${path}` }), el('thead', {}, head), el('tbody', {}, ...rows)),
  ];
  if (lines.length > LINES_SHOWN) parts.push(el('p', { className: 'help', text: `… and ${lines.length - LINES_SHOWN} more lines not shown.` }));
  return el('div', {}, ...parts);
}

/** The actor, always shown; when and which conversation in a tip shown on hover and focus. */
function gutterCell(line: BlameLine): HTMLElement {
  const who = line.dropped ? 'unknown' : (line.actor ?? 'unknown');
  const details: string[] = [];
  if (line.dropped) details.push('the change that wrote it is no longer in the history');
  if (line.at) details.push(line.at.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'medium' }));
  if (line.change !== null) details.push(`change ${line.change}`);
  details.push(line.source !== undefined ? `conversation ${line.source}` : 'no conversation named');
  return el(
    'span',
    { className: 'blame-who', attrs: { tabindex: '0' } },
    document.createTextNode(who),
    el('span', { className: 'blame-tip', text: `, ${details.join(', ')}` }),
  );
}
