// On a phone the conversation and the memory take turns on the screen, one tap apart; on a wider screen both show
// and the switch is hidden. A skip link brings its pane forward; a change to the memory while the conversation shows
// marks the Memory tab, so the person sees Claude wrote something one tap away.

import { byId } from './dom.js';
import { setupTablist } from './tablist.js';

/** Below this width the two stand one at a time (the same width as in style.css). */
const NARROW = '(max-width: 900px)';

export interface HeartSwitch {
  /** Brings `pane` forward on a phone; nothing changes on a wider screen, where both show. */
  show(pane: 'chat' | 'memory'): void;
  /** The memory changed: marks its tab while it is out of sight. */
  changed(): void;
}

export function setupHeartSwitch(): HeartSwitch {
  const heart = byId('heart', HTMLElement);
  const chat = byId('chat', HTMLElement);
  const memory = byId('memory', HTMLElement);
  const memoryTab = byId('show-memory', HTMLButtonElement);
  const { select } = setupTablist(byId('heart-switch', HTMLElement), (panelId) => {
    heart.dataset.pane = panelId === 'memory' ? 'memory' : 'chat';
    if (panelId === 'memory') mark(false);
  });
  const mark = (on: boolean) => {
    memoryTab.toggleAttribute('data-attention', on);
    if (on) memoryTab.setAttribute('aria-description', 'changed since you last looked');
    else memoryTab.removeAttribute('aria-description');
  };

  // The two are tab panels only while they take turns; side by side they are plain regions.
  const narrow = matchMedia(NARROW);
  const roles = () => {
    for (const pane of [chat, memory]) {
      if (narrow.matches) pane.setAttribute('role', 'tabpanel');
      else pane.removeAttribute('role');
    }
  };
  narrow.addEventListener('change', roles);
  roles();

  // "Skip to the memory" on a phone: the pane must show before the browser scrolls to it.
  document.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('a[href^="#"]') : null;
    const target = link?.getAttribute('href')?.slice(1);
    if (target === 'chat' || target === 'memory') select(target);
  });
  return {
    show: select,
    changed() {
      if (narrow.matches && heart.dataset.pane !== 'memory') mark(true);
    },
  };
}
