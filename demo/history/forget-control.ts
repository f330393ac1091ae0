// "Forget for good": tool.forget(path) and tool.clearHistory(), each only after a confirmation that says it cannot
// be undone. The form is index.html's (end of the history panel), wired here when first reached; the panels redraw
// from the change events.

import { isMemoryToolError } from '../../src/index.js';
import type { ClearHistoryReport, ForgetReport, IndexedDBMemoryTool } from '../../src/index.js';
import { byId, focusLost, messageOf } from '../page/dom.js';

type Pending = { kind: 'forget'; path: string } | { kind: 'clear' };

export function setupForgetControl(tool: IndexedDBMemoryTool): void {
  const form = byId('forget-form', HTMLFormElement);
  const path = byId('forget-path', HTMLInputElement);
  const clear = byId('forget-clear', HTMLButtonElement);
  const question = byId('forget-question', HTMLElement);
  const confirm = byId('forget-yes', HTMLButtonElement);
  const cancel = byId('forget-no', HTMLButtonElement);
  const confirmation = byId('forget-confirm', HTMLElement);
  const status = byId('forget-status', HTMLElement);

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
