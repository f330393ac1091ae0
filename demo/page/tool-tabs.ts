// The developer tools (history, console, bundles, storage, sync) as tabs under the conversation: one panel shown at a
// time. A panel with something to say while hidden (an alert, a sync conflict) marks its tab, so nothing goes unseen.

import { byId } from './dom.js';
import { setupTablist } from './tablist.js';

export interface ToolTabs {
  /** Shows the tool whose panel has `panelId` (as its tab would); any other id changes nothing. */
  show(panelId: string): void;
}

/** What in a hidden panel asks for a look: an alert with words in it, or a part marked `data-attention`. */
const ASKING = '[role="alert"]:not([hidden]), [data-attention]:not([hidden])';

export function setupToolTabs(): ToolTabs {
  const tablist = byId('tool-tabs', HTMLElement);
  const tabs = [...tablist.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
  const panelOf = (tab: HTMLButtonElement) => byId(tab.getAttribute('aria-controls') ?? '', HTMLElement);

  const mark = () => {
    for (const tab of tabs) {
      const panel = panelOf(tab);
      const asking = panel.hidden && [...panel.querySelectorAll(ASKING)].some((part) => part.textContent?.trim());
      tab.toggleAttribute('data-attention', asking);
      // The mark is a dot to the eye; to a screen reader, a description of the tab.
      if (asking) tab.setAttribute('aria-description', 'has something to show');
      else tab.removeAttribute('aria-description');
    }
  };
  // A hidden panel loses its scroll places (display: none has no scroll box); they are kept and put back.
  const scrolled = new WeakMap<HTMLElement, Array<[Element, number]>>();
  const { select } = setupTablist(tablist, (panelId) => {
    for (const tab of tabs) {
      const panel = panelOf(tab);
      const hide = panel.id !== panelId;
      if (hide && !panel.hidden) {
        scrolled.set(panel, [...panel.querySelectorAll('*')].filter((part) => part.scrollTop > 0).map((part) => [part, part.scrollTop]));
      }
      panel.hidden = hide;
      if (!hide) for (const [part, top] of scrolled.get(panel) ?? []) part.scrollTop = top;
    }
    mark();
  });
  // Panels redraw their alerts and lists as things happen; the marks follow.
  const observer = new MutationObserver(mark);
  for (const tab of tabs) {
    observer.observe(panelOf(tab), { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['hidden'] });
  }
  return { show: select };
}
