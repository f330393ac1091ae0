// The expiry control: "Delete files not used for N days" → tool.expire(). 0 days deletes every file, so it is asked
// first. Says how many files went and that the expiry is one change in the history, so one Undo brings them all back.

import type { IndexedDBMemoryTool } from '../../src/index.js';
import { byId, focusLost, messageOf } from '../page/dom.js';

const DAY_MS = 24 * 3600_000;

export function setupExpiryControl(tool: IndexedDBMemoryTool, afterExpire: () => Promise<void>): void {
  const form = byId('expire-form', HTMLFormElement);
  const days = byId('expire-days', HTMLInputElement);
  const button = byId('expire', HTMLButtonElement);
  const status = byId('expire-status', HTMLElement);
  const confirmation = byId('expire-confirm', HTMLElement);
  const question = byId('expire-question', HTMLElement);
  const yes = byId('expire-yes', HTMLButtonElement);
  const no = byId('expire-no', HTMLButtonElement);

  const expire = (n: number, hadFocus: boolean) => {
    // Disabling the button drops its focus; it gets it back once it is enabled again.
    button.disabled = true;
    status.textContent = 'Expiring…';
    const span = `${n} day${n === 1 ? '' : 's'}`;
    void tool
      .expire({ olderThan: n * DAY_MS })
      .then(
        async ({ deleted }) => {
          status.textContent =
            deleted.length === 0
              ? `No file has gone unused for ${span}; nothing was deleted.`
              : `Deleted ${deleted.length} file${deleted.length === 1 ? '' : 's'} not used for ${span}. ` +
                'This is one change in the history (by “Expiry”): Undo there brings them all back.';
          await afterExpire();
        },
        (error: unknown) => {
          status.textContent = `Expiry failed, nothing was deleted: ${messageOf(error)}`;
        },
      )
      .finally(() => {
        button.disabled = false;
        if (hadFocus && focusLost()) button.focus();
      });
  };

  const close = () => {
    // The confirmation's buttons go with it: the keyboard goes back to Expire.
    const hadFocus = confirmation.contains(document.activeElement);
    confirmation.hidden = true;
    if (hadFocus || focusLost()) button.focus();
  };

  /** Asks before an expiry of 0 days, which deletes every file; nothing to delete needs no question. */
  const askFirst = async (): Promise<boolean> => {
    const files = (await tool.list()).filter((entry) => entry.kind === 'file').length;
    if (files === 0) return false;
    const all = files === 1 ? 'the only file' : `all ${files} files`;
    question.textContent =
      `0 days deletes every file in the memory: ${all}, Claude's notes included. One Undo in the history brings ` +
      'them back. Delete them?';
    yes.textContent = files === 1 ? 'Delete the only file' : `Delete all ${files} files`;
    confirmation.hidden = false;
    status.textContent = '';
    // The safe answer has the keyboard: Enter right away deletes nothing.
    no.focus();
    return true;
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    confirmation.hidden = true;
    const n = Number(days.value);
    if (days.value.trim() === '' || !Number.isFinite(n) || n < 0) {
      status.textContent = 'Enter a number of days, 0 or more.';
      days.focus();
      return;
    }
    const hadFocus = document.activeElement === button;
    if (n > 0) {
      expire(n, hadFocus);
      return;
    }
    void askFirst().then(
      (asked) => {
        if (!asked) expire(0, hadFocus);
      },
      (error: unknown) => {
        status.textContent = `Expiry failed, nothing was deleted: ${messageOf(error)}`;
      },
    );
  });
  yes.addEventListener('click', () => {
    confirmation.hidden = true;
    expire(0, true);
  });
  no.addEventListener('click', () => {
    status.textContent = 'Cancelled; nothing was deleted.';
    close();
  });
  // Another number of days is another question: the one asked goes.
  days.addEventListener('input', () => {
    confirmation.hidden = true;
  });
}
