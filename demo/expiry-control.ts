// The expiry control: "Delete files not used for N days" → tool.expire(). Says how many files went and that the
// expiry is one change in the history, so one Undo brings them all back.

import type { IndexedDBMemoryTool } from '../src/index.js';
import { byId, focusLost, messageOf } from './dom.js';

const DAY_MS = 24 * 3600_000;

export function setupExpiryControl(tool: IndexedDBMemoryTool, afterExpire: () => Promise<void>): void {
  const form = byId('expire-form', HTMLFormElement);
  const days = byId('expire-days', HTMLInputElement);
  const button = byId('expire', HTMLButtonElement);
  const status = byId('expire-status', HTMLElement);

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const n = Number(days.value);
    if (days.value.trim() === '' || !Number.isFinite(n) || n < 0) {
      status.textContent = 'Enter a number of days, 0 or more.';
      days.focus();
      return;
    }
    // Disabling the button drops its focus; it gets it back once it is enabled again.
    const hadFocus = document.activeElement === button;
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
  });
}
