// The history list's scroll place across redraws. A redraw puts new changes at the top: the change the person was
// reading stays where it was on screen (scroll anchoring by hand: the redraw replaces the nodes the browser would
// anchor to), and changes that arrive above a scrolled list are announced by a button that shows them.

/** Notes which change is at the top of `list`'s view; `restore()`, after a redraw, scrolls it back to the same place. */
export function keepScrollPlace(list: HTMLElement): { restore(): void } {
  const top = list.getBoundingClientRect().top;
  const anchor =
    list.scrollTop > 0
      ? [...list.children].find((child) => child.getBoundingClientRect().bottom > top)
      : undefined;
  const id = anchor instanceof HTMLElement ? anchor.dataset.id : undefined;
  const offset = anchor ? anchor.getBoundingClientRect().top - top : 0;
  return {
    restore() {
      if (id === undefined) return;
      const again = list.querySelector(`:scope > [data-id="${id}"]`);
      if (again) list.scrollTop += again.getBoundingClientRect().top - list.getBoundingClientRect().top - offset;
    },
  };
}

/** Above this many pixels scrolled, the top of the list is out of view. */
const AT_TOP = 4;

/**
 * Counts the changes drawn above a scrolled `list` since the person last saw its top, and offers them with `button`
 * ("Show 2 new changes"), which scrolls up and gives the newest change the keyboard. Scrolling to the top by hand
 * clears the count.
 */
export function watchNewEntries(list: HTMLElement, button: HTMLButtonElement): { drawn(ids: readonly number[]): void; reset(): void } {
  let newest: number | undefined;
  let unseen = 0;
  const update = () => {
    button.hidden = unseen === 0;
    button.textContent = `Show ${unseen} new change${unseen === 1 ? '' : 's'}`;
  };
  const clear = () => {
    unseen = 0;
    update();
  };
  list.addEventListener('scroll', () => {
    if (unseen > 0 && list.scrollTop <= AT_TOP) clear();
  });
  button.addEventListener('click', () => {
    list.scrollTop = 0;
    clear();
    // The button hides itself: the newest change's first button takes the keyboard, where the new changes begin.
    list.firstElementChild?.querySelector<HTMLElement>('button')?.focus();
  });
  return {
    drawn(ids) {
      const last = newest;
      newest = ids[0] ?? newest;
      if (last === undefined || list.scrollTop <= AT_TOP) return clear();
      unseen += ids.filter((id) => id > last).length;
      update();
    },
    reset() {
      newest = undefined;
      clear();
    },
  };
}
