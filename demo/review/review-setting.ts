// The "Review Claude's writes" setting (remembered in localStorage) and the `approve` hook it gives the tool. The
// hook is set only when review was on as the page opened: the library loads its approval part with the tool, which
// the first load of a page that does not review should not carry. The review cards load when first needed.

import { approvePolicy } from '../../src/index.js';
import type { ApproveHook, PolicyAnswer, WriteProposal } from '../../src/index.js';
import { byId, el } from '../page/dom.js';

const KEY = 'idb-memory-tool-demo:review';

type CardsModule = typeof import('./review-card.js');
let cards: Promise<CardsModule> | undefined;

/** The review cards' code, once; a failed load (offline) is tried afresh next time. */
export const loadReviewCards = (): Promise<CardsModule> =>
  (cards ??= import('./review-card.js').catch((error: unknown) => {
    cards = undefined;
    throw error;
  }));

/** Whether the person turned review on (default off). */
export function reviewRemembered(): boolean {
  try {
    return localStorage.getItem(KEY) === 'on';
  } catch {
    return false; // storage disabled: the default
  }
}

function remember(on: boolean): void {
  try {
    if (on) localStorage.setItem(KEY, 'on');
    else localStorage.removeItem(KEY);
  } catch {
    // Storage disabled: the setting lasts as long as the page.
  }
}

/**
 * The `approve` hook for the tool when review is on as the page opens, else undefined. With the setting turned off
 * later, it answers 'allow' without asking; "Allow for this conversation" is kept by `approvePolicy`, by source.
 */
export function reviewHook(isOn: () => boolean): ApproveHook | undefined {
  if (!reviewRemembered()) return undefined;
  const ask = async (proposal: WriteProposal): Promise<PolicyAnswer> => {
    if (!isOn()) return 'allow';
    const { askInTranscript } = await loadReviewCards();
    return askInTranscript(proposal);
  };
  return approvePolicy({ ask }).approve;
}

/** Wires the checkbox; `wired`: the tool has the hook (review was on as the page opened). */
export function setupReviewSetting(wired: boolean): { isOn(): boolean } {
  const box = byId('review-writes', HTMLInputElement);
  const status = byId('review-status', HTMLElement);
  let on = reviewRemembered();
  box.checked = on;
  box.addEventListener('change', () => {
    on = box.checked;
    remember(on);
    if (!on || wired) {
      status.replaceChildren();
      return;
    }
    // Turned on in a page whose tool was opened without review: the tool takes its hook when it opens.
    const reload = el('button', { text: 'Reload now', attrs: { type: 'button' } });
    reload.addEventListener('click', () => location.reload());
    status.replaceChildren('Review starts when the page reloads. ', reload);
  });
  return { isOn: () => on && wired };
}
