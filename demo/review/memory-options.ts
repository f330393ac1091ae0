// The Memory pane's options, loaded when the person first reaches them: "Review Claude's writes" (remembered) and
// "Show who wrote each line" (the blame gutter). A box ticked before this code listened is applied as it loads.

import type { IndexedDBMemoryTool } from '../../src/index.js';
import { byId, el } from '../page/dom.js';
import { setupBlameGutter } from '../memory/blame-gutter.js';

/** `wired`: the tool opened with the review hook (review was on as the page opened); `key`: where it is remembered. */
export function setupMemoryOptions(tool: IndexedDBMemoryTool, wired: boolean, key: string): void {
  const review = byId('review-writes', HTMLInputElement);
  const status = byId('review-status', HTMLElement);
  const blame = byId('blame-toggle', HTMLInputElement);
  const gutter = setupBlameGutter(tool);

  const reviewChanged = () => {
    try {
      if (review.checked) localStorage.setItem(key, 'on');
      else localStorage.removeItem(key);
    } catch {
      // Storage disabled: the setting lasts as long as the page.
    }
    if (!review.checked || wired) {
      status.replaceChildren();
      return;
    }
    // The tool takes its hook as it opens (main.ts): a page opened without review starts it on a reload.
    const reload = el('button', { text: 'Reload now', attrs: { type: 'button' } });
    reload.addEventListener('click', () => location.reload());
    status.replaceChildren('Review starts when the page reloads. ', reload);
  };
  const blameChanged = () => void gutter.show(blame.checked);

  review.addEventListener('change', reviewChanged);
  blame.addEventListener('change', blameChanged);
  if (review.checked !== wired) reviewChanged();
  if (blame.checked) blameChanged();
}
