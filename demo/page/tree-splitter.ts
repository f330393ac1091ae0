// The separator between the memory's file list and the file: a WAI-ARIA window splitter (role=separator, focusable,
// aria-valuenow the list's share of the width in percent). Dragged by a pointer, moved by the arrow keys, Home and
// End; the width is remembered in localStorage.

const STORED = 'idb-memory-tool-demo:tree-width';
const MIN = 15;
const MAX = 70;
const DEFAULT = 35;
/** An arrow key's step, and PageUp/PageDown's. */
const STEP = 2;
const PAGE = 10;

const clamp = (value: number) => Math.min(MAX, Math.max(MIN, Math.round(value)));

/** `columns` holds the list, the separator and the file as a grid whose first column is `--tree-width`. */
export function setupTreeSplitter(columns: HTMLElement, separator: HTMLElement): void {
  let width = clamp(readStored() ?? DEFAULT);

  const apply = (next: number, keep: boolean) => {
    width = clamp(next);
    columns.style.setProperty('--tree-width', `${width}%`);
    separator.setAttribute('aria-valuenow', String(width));
    separator.setAttribute('aria-valuetext', `${width}% of the width`);
    if (keep) store(width);
  };

  const KEYS: Record<string, () => number> = {
    ArrowLeft: () => width - STEP,
    ArrowDown: () => width - STEP,
    ArrowRight: () => width + STEP,
    ArrowUp: () => width + STEP,
    PageDown: () => width - PAGE,
    PageUp: () => width + PAGE,
    Home: () => MIN,
    End: () => MAX,
  };
  separator.addEventListener('keydown', (event) => {
    const next = KEYS[event.key];
    if (!next) return;
    event.preventDefault();
    apply(next(), true);
  });

  // The pointer drags it: captured, so the drag goes on over the tree or the file; kept when let go.
  const follow = (event: PointerEvent) => {
    const box = columns.getBoundingClientRect();
    if (box.width > 0) apply(((event.clientX - box.left) / box.width) * 100, false);
  };
  separator.addEventListener('pointerdown', (event) => {
    if (event.button !== 0) return;
    event.preventDefault();
    separator.setPointerCapture(event.pointerId);
    separator.addEventListener('pointermove', follow);
  });
  const release = () => {
    separator.removeEventListener('pointermove', follow);
    store(width);
  };
  separator.addEventListener('pointerup', release);
  separator.addEventListener('pointercancel', release);

  apply(width, false);
}

function readStored(): number | undefined {
  try {
    const value = Number(localStorage.getItem(STORED));
    return Number.isFinite(value) && value > 0 ? value : undefined;
  } catch {
    return undefined; // storage disabled: the default width
  }
}

function store(width: number): void {
  try {
    localStorage.setItem(STORED, String(width));
  } catch {
    // Storage disabled or full: the width lasts as long as the page.
  }
}
