// The Connection popover's place: under its button, over the conversation and never over the memory (its right edge
// stays in the chat pane at desktop width, its bottom above the message box). Escape and a click outside close it
// (the popover attribute's light dismiss); the page closes it after a good Connect and on Send.

/** Space kept between the popover and what it must not cover. */
const GAP = 6;
/** Short of this, the popover scrolls inside rather than shrink further. */
const MIN_HEIGHT = 176;

export interface ConnectionPopover {
  close(): void;
}

export function setupConnectionPopover(popover: HTMLElement, button: HTMLElement, pane: HTMLElement, composer: HTMLElement): ConnectionPopover {
  const supported = typeof popover.showPopover === 'function';
  const isOpen = () => supported && popover.matches(':popover-open');
  const wide = matchMedia('(min-width: 901px)');

  const place = () => {
    if (!isOpen()) return;
    const from = button.getBoundingClientRect();
    const within = pane.getBoundingClientRect();
    const width = popover.offsetWidth;
    // Right-aligned to its button, but never left of the pane (or the window), nor right of the pane.
    const left = Math.max(wide.matches ? within.left : GAP, Math.min(from.right, within.right) - width);
    const top = from.bottom + GAP;
    // Above the message box and its buttons, so that Send stays in reach with the fields in view.
    const floor = Math.min(composer.getBoundingClientRect().top, innerHeight);
    popover.style.left = `${Math.round(left + scrollX)}px`;
    popover.style.top = `${Math.round(top + scrollY)}px`;
    popover.style.maxHeight = `${Math.round(Math.max(MIN_HEIGHT, floor - GAP - top))}px`;
  };

  popover.addEventListener('toggle', (event) => {
    if ((event as ToggleEvent).newState === 'open') {
      place();
      // Opened to type into: the first field takes the focus.
      popover.querySelector<HTMLElement>('input')?.focus();
      return;
    }
    // Closed by Escape or by Connect, focus would fall to <body>: it goes back to the button. A click elsewhere
    // has put it where the person clicked, and it stays there.
    const active = document.activeElement;
    if (active === null || active === document.body || popover.contains(active)) button.focus();
  });
  addEventListener('resize', place);

  return {
    close() {
      if (isOpen()) popover.hidePopover();
    },
  };
}
