// One change's diff in the history panel, capped: each file shows its first lines and a count of the rest, and a
// change of many files shows the first ones and a count, so even a change that wrote 500,000 lines costs the page a
// few thousand elements. Everything is written with textContent: paths and contents are memory data.

import type { ChangeDetail, ChangedFile } from '../../src/index.js';
import { el } from '../page/dom.js';
import { capDiff, diffLines, withContext } from './line-diff.js';
import type { HiddenLines } from './line-diff.js';
import './history-diff.css';

/** Diff lines shown for one file; the rest are counted. */
export const LINES_SHOWN = 200;
/** Files (and moves) shown for one change; the rest are counted. */
export const FILES_SHOWN = 20;

const count = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

export function renderDetail(detail: ChangeDetail): HTMLElement[] {
  const out: HTMLElement[] = [];
  for (const move of detail.moves.slice(0, FILES_SHOWN)) {
    out.push(el('p', { className: 'diff-move', text: `Moved ${move.from} → ${move.to}` }));
  }
  if (detail.moves.length > FILES_SHOWN) {
    out.push(el('p', { className: 'help', text: `… and ${count(detail.moves.length - FILES_SHOWN, 'more move')}, not shown.` }));
  }
  for (const file of detail.files.slice(0, FILES_SHOWN)) out.push(renderFile(file));
  const more = detail.files.length - FILES_SHOWN;
  if (more > 0) {
    const names = detail.files.slice(FILES_SHOWN, FILES_SHOWN + 5).map((file) => file.path);
    out.push(
      el('p', {
        className: 'help',
        text: `… and ${count(more, 'more file')} not shown: ${names.join(', ')}${more > names.length ? ', …' : ''}`,
      }),
    );
  }
  if (out.length === 0) out.push(el('p', { className: 'help', text: 'No file contents changed (folders only).' }));
  return out;
}

function renderFile(file: ChangedFile): HTMLElement {
  const kind =
    file.before === null && file.after === null
      ? 'contents no longer kept in the history'
      : file.before === null
        ? 'new file'
        : file.after === null
          ? 'deleted'
          : 'changed';
  const lines = withContext(diffLines(file.before, file.after));
  const { shown, hidden } = capDiff(lines, LINES_SHOWN);
  // No aria on <pre> (its role may not be named): the group around it carries the name. Focusable, as it may scroll.
  const pre = el('pre', { className: 'diff-lines', attrs: { tabindex: '0' } });
  for (const line of shown) {
    if ('skipped' in line) {
      pre.append(el('span', { className: 'line skipped', text: `  … ${count(line.skipped, 'unchanged line')}\n` }));
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
  const parts: HTMLElement[] = [el('p', { className: 'diff-path', text: `${file.path} — ${kind}` }), pre];
  const rest = describeHidden(hidden);
  if (rest) parts.push(el('p', { className: 'diff-more', text: rest }));
  return el('div', { className: 'diff-file', attrs: { role: 'group', 'aria-label': `Diff of ${file.path}` } }, ...parts);
}

/** "… and 499,800 more lines not shown (499,800 added)", or undefined when nothing was cut. */
function describeHidden(hidden: HiddenLines): string | undefined {
  const total = hidden.added + hidden.removed + hidden.same;
  if (total === 0) return undefined;
  const kinds = [
    hidden.added > 0 ? `${hidden.added.toLocaleString('en')} added` : '',
    hidden.removed > 0 ? `${hidden.removed.toLocaleString('en')} removed` : '',
    hidden.same > 0 ? `${hidden.same.toLocaleString('en')} unchanged` : '',
  ].filter((kind) => kind !== '');
  return `… and ${count(total, 'more line')} not shown (${kinds.join(', ')}).`;
}
