// "Forget for good": tool.forget(path) and tool.clearHistory(), each only after a confirmation that says it cannot
// be undone. Built here and put at the end of the history panel; the panels redraw from the change events.

import { isMemoryToolError } from '../../src/index.js';
import type { ClearHistoryReport, ForgetReport, IndexedDBMemoryTool } from '../../src/index.js';
import { byId, el, focusLost, messageOf } from '../page/dom.js';

type Pending = { kind: 'forget'; path: string } | { kind: 'clear' };

export function setupForgetControl(tool: IndexedDBMemoryTool): { choose(path: string): void } {
  const path = el('input', {
    attrs: {
      id: 'forget-path',
      type: 'text',
      value: '/memories/',
      autocomplete: 'off',
      spellcheck: 'false',
      'aria-describedby': 'forget-help',
    },
  });
  const forget = el('button', { text: 'Forget…', attrs: { type: 'submit' } });
  const clear = el('button', { text: 'Clear history…', attrs: { type: 'button' } });
  const question = el('p', { className: 'alert', attrs: { id: 'forget-question' } });
  // The one button here that erases for good: styled as destructive (style.css button.danger), unlike Cancel.
  const confirm = el('button', { className: 'danger', attrs: { type: 'button' } });
  const cancel = el('button', { text: 'Cancel', attrs: { type: 'button' } });
  const confirmation = el(
    'div',
    { className: 'forget-confirm', attrs: { role: 'group', 'aria-labelledby': 'forget-question' } },
    question,
    el('div', { className: 'buttons' }, confirm, cancel),
  );
  confirmation.hidden = true;
  const form = el(
    'form',
    { className: 'expire forget', attrs: { id: 'forget-form', 'aria-labelledby': 'forget-title', novalidate: '' } },
    el('h3', { text: 'Forget for good', attrs: { id: 'forget-title' } }),
    el(
      'div',
      { className: 'expire-row' },
      el('label', { text: 'Path', attrs: { for: 'forget-path' } }),
      path,
      forget,
      clear,
    ),
    el('p', {
      className: 'help',
      attrs: { id: 'forget-help' },
      text:
        'Forget erases a file or folder (also one deleted already) and every copy of it the history keeps, so Undo ' +
        'can no longer bring it back. Clear history erases every change and the old texts it keeps; your files stay. ' +
        'Neither can be undone.',
    }),
    confirmation,
  );
  // tabindex=-1: focus goes here when the confirmation, done, hides itself.
  const status = el('p', { className: 'status', attrs: { id: 'forget-status', role: 'status', tabindex: '-1' } });
  byId('history', HTMLElement).append(form, status);

  let pending: Pending | undefined;

  const ask = (next: Pending) => {
    pending = next;
    if (next.kind === 'forget') {
      question.textContent =
        `Forget ${next.path} for good? It is deleted if it is there, and every copy of it is erased from the ` +
        'history. This cannot be undone.';
      confirm.textContent = 'Forget for good';
    } else {
      question.textContent =
        'Clear the whole history for good? Every change and the old texts it keeps are erased; the files stay as ' +
        'they are. No change so far can be undone afterwards, and this cannot be undone.';
      confirm.textContent = 'Clear history for good';
    }
    confirmation.hidden = false;
    status.textContent = '';
    // The safe answer has the keyboard: Enter right away changes nothing.
    cancel.focus();
  };

  const close = (message: string) => {
    pending = undefined;
    confirmation.hidden = true;
    status.textContent = message;
    if (focusLost()) status.focus();
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = path.value.trim();
    if (value === '' || value === '/memories/') {
      status.textContent = 'Enter the path of a file or folder in /memories to forget.';
      path.focus();
      return;
    }
    ask({ kind: 'forget', path: value });
  });
  clear.addEventListener('click', () => ask({ kind: 'clear' }));
  cancel.addEventListener('click', () => close('Cancelled; nothing was changed.'));
  confirm.addEventListener('click', () => {
    const chosen = pending;
    if (!chosen) return;
    confirm.disabled = true;
    cancel.disabled = true;
    status.textContent = chosen.kind === 'forget' ? `Forgetting ${chosen.path}…` : 'Clearing the history…';
    const done =
      chosen.kind === 'forget'
        ? tool.forget(chosen.path).then(describeForget)
        : tool.clearHistory().then(describeClear);
    void done
      .then(
        (message) => {
          if (chosen.kind === 'forget') path.value = '/memories/';
          close(message);
        },
        (error: unknown) => {
          // The tool's refusals are sentences that say nothing was changed; other failures are not.
          close(isMemoryToolError(error) ? error.message : `It failed, nothing was changed: ${messageOf(error)}`);
        },
      )
      .finally(() => {
        confirm.disabled = false;
        cancel.disabled = false;
      });
  });

  return {
    choose(chosen: string) {
      path.value = chosen;
    },
  };
}

function describeForget(report: ForgetReport): string {
  const n = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  const parts = [
    report.deleted.length > 0
      ? `deleted ${n(report.deleted.length, 'file or folder', 'files and folders')}`
      : 'it was no longer in the memory',
    `erased ${n(report.removedChanges.length, 'change', 'changes')} from the history`,
  ];
  if (report.trimmedChanges.length > 0) {
    const trimmed = n(report.trimmedChanges.length, 'change', 'changes');
    parts.push(`kept ${trimmed} that did more, without it (no longer undoable)`);
  }
  const kept =
    report.keptIn.length > 0 ? ` Its text was moved or edited into ${report.keptIn.join(', ')}, which stays.` : '';
  return `Forgot ${report.path} for good: ${parts.join('; ')}.${kept}`;
}

function describeClear(report: ClearHistoryReport): string {
  const n = report.removedChanges;
  if (n === 0) return 'The history was already empty.';
  return `Cleared the history: ${n} change${n === 1 ? '' : 's'} erased for good.`;
}
