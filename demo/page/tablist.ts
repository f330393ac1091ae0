// A WAI-ARIA tab list: one tab selected, the only one in the Tab order; arrows, Home and End move between tabs and
// select as they go. What a selection shows is the caller's: hidden panels for the tools, a pane for the phone's switch.

/** The tab list in `tablist`; `onSelect` runs with the chosen tab's `aria-controls` id, also for the first one. */
export function setupTablist(tablist: HTMLElement, onSelect: (panelId: string) => void): { select(panelId: string): void } {
  const tabs = [...tablist.querySelectorAll<HTMLButtonElement>('[role="tab"]')];

  const select = (chosen: HTMLButtonElement, focus: boolean) => {
    for (const tab of tabs) {
      const on = tab === chosen;
      tab.setAttribute('aria-selected', String(on));
      tab.tabIndex = on ? 0 : -1;
    }
    if (focus) chosen.focus();
    onSelect(chosen.getAttribute('aria-controls') ?? '');
  };

  for (const tab of tabs) tab.addEventListener('click', () => select(tab, false));
  tablist.addEventListener('keydown', (event) => {
    const at = tabs.indexOf(event.target as HTMLButtonElement);
    if (at < 0) return;
    const next = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    select(tabs[(next + tabs.length) % tabs.length]!, true);
  });

  const current = tabs.find((tab) => tab.getAttribute('aria-selected') === 'true') ?? tabs[0];
  if (current) select(current, false);
  return {
    select(panelId) {
      const tab = tabs.find((candidate) => candidate.getAttribute('aria-controls') === panelId);
      if (tab && tab.getAttribute('aria-selected') !== 'true') select(tab, false);
    },
  };
}
