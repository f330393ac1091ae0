// A panel whose code loads on first use: when the person reaches into its section (pointer, focus, a key) or when
// the page is idle, whichever comes first. Until it is set up its fields work as plain HTML; a button pressed meanwhile
// is pressed again once the panel listens, and a field changed meanwhile (a file picked) tells its change again, so
// nothing done before the code came is lost.

export interface PanelOnDemand {
  /** Loads and sets up the panel now (once); settles when it listens. */
  load(): Promise<void>;
}

/** `setup` loads the panel's code and wires `section`; it runs once, on the first intent or `load()`. */
export function panelOnDemand(section: HTMLElement, setup: () => Promise<void>): PanelOnDemand {
  let ready = false;
  let loading: Promise<void> | undefined;
  let held: HTMLButtonElement | undefined;
  // In the order they first changed; a field changed twice tells it once, with its value now.
  const changed = new Set<Element>();

  const load = () =>
    (loading ??= setup().then(
      () => {
        ready = true;
        for (const type of INTENT) section.removeEventListener(type, onIntent, true);
        section.removeEventListener('click', holdClick, true);
        // Told once ready, so the hold below lets them through.
        for (const field of changed) field.dispatchEvent(new Event('change', { bubbles: true }));
        const button = held;
        held = undefined;
        if (button && !button.disabled && !button.hidden) button.click();
      },
      (error: unknown) => {
        loading = undefined; // tried again on the next intent
        throw error;
      },
    ));

  const onIntent = () => void load().catch(() => undefined);
  // A button's click before its listener exists would do nothing: it is held, and replayed once set up.
  const holdClick = (event: Event) => {
    if (ready) return;
    const button = event.target instanceof Element ? event.target.closest('button') : null;
    if (!(button instanceof HTMLButtonElement)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    held = button;
    onIntent();
  };

  // A change before its listener exists (a file chosen in a picker) would be missed: it is told again once set up.
  const holdChange = (event: Event) => {
    if (ready || !(event.target instanceof Element)) return;
    changed.add(event.target);
    onIntent();
  };

  for (const type of INTENT) section.addEventListener(type, onIntent, true);
  section.addEventListener('click', holdClick, true);
  section.addEventListener('change', holdChange, true);
  return { load };
}

const INTENT = ['pointerdown', 'focusin', 'keydown'] as const;
