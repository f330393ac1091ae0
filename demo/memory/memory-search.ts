// The search box over the Memory pane: results as the person types (createMemorySearchStore, kept live by change
// events), each file's matching lines as options of a WAI-ARIA listbox with the matched words in <mark>, Enter or a
// click opening the file at the line. Loaded when the box is first reached (main.ts); text goes in by textContent.

import { createMemorySearchStore } from '../../src/index.js';
import type { IndexedDBMemoryTool, MemorySearchSnapshot, SearchLine } from '../../src/index.js';
import { byId, el, messageOf } from '../page/dom.js';
import type { MemoryPanel } from './memory-panel.js';
import './memory-search.css';

/** Hits shown; `total` still says how many files match. */
const LIMIT = 10;
/** A pause in typing before searching, so a fast typist's every key does not start a search. */
const DEBOUNCE_MS = 120;

export function setupMemorySearch(tool: IndexedDBMemoryTool, memory: MemoryPanel): void {
  const input = byId('search-input', HTMLInputElement);
  const results = byId('search-results', HTMLDivElement);
  const count = byId('search-count', HTMLElement);
  const store = createMemorySearchStore(tool, input.value, { prefix: true, limit: LIMIT });
  /** The active option's key (`path#line`), kept across re-renders while it is still there. */
  let active: string | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const options = () => [...results.querySelectorAll<HTMLElement>('[role="option"]')];

  const activate = (option: HTMLElement | undefined) => {
    for (const other of options()) other.setAttribute('aria-selected', String(other === option));
    active = option?.dataset.key;
    if (option) {
      results.setAttribute('aria-activedescendant', option.id);
      option.scrollIntoView({ block: 'nearest' });
    } else results.removeAttribute('aria-activedescendant');
  };

  const openOption = (option: HTMLElement | undefined) => {
    const path = option?.dataset.path;
    const line = Number(option?.dataset.line);
    if (path === undefined || !Number.isInteger(line)) return;
    void memory.reveal(path, line).then(() => {
      byId('memory-status', HTMLElement).textContent = `Opened ${path} at line ${line}.`;
    });
  };

  const say = (text: string, failed = false) => {
    if (count.textContent !== text) count.textContent = text;
    count.classList.toggle('failed', failed);
  };

  const render = (snapshot: MemorySearchSnapshot) => {
    if (snapshot.status === 'idle' || snapshot.status === 'loading') {
      say(snapshot.status === 'loading' ? 'Searching…' : '');
      if (snapshot.status === 'idle') showHits(snapshot);
      return;
    }
    if (snapshot.status === 'error') {
      say(`Cannot search: ${messageOf(snapshot.error)}`, true);
      showHits(snapshot);
      return;
    }
    const { total, hits, query } = snapshot;
    if (total === 0) say(`No file matches “${query}”.`);
    else if (total > hits.length) say(`${total} files match; the best ${hits.length} are shown.`);
    else say(total === 1 ? '1 file matches.' : `${total} files match.`);
    showHits(snapshot);
  };

  const showHits = ({ hits }: MemorySearchSnapshot) => {
    const groups = hits.map((hit, index) => {
      const label = el('div', { className: 'hit-path', text: hit.path, attrs: { id: `search-hit-${index}`, role: 'presentation' } });
      const lines = hit.lines.map((line) => optionOf(hit.path, line, `search-hit-${index}-${line.line}`));
      return el('div', { attrs: { role: 'group', 'aria-labelledby': label.id } }, label, ...lines);
    });
    const hadFocus = document.activeElement === results;
    results.replaceChildren(...groups);
    results.hidden = groups.length === 0;
    // A list emptied under the keyboard (a change deleted the files) hands focus back to the box, not to <body>.
    if (hadFocus && results.hidden) input.focus();
    const keep = options().find((option) => option.dataset.key === active);
    activate(keep ?? (document.activeElement === results ? options()[0] : undefined));
  };

  store.subscribe(render);
  render(store.getSnapshot());

  input.addEventListener('input', () => {
    clearTimeout(timer);
    // Cleared: at once, so the list goes with the text.
    if (input.value.trim() === '') store.setQuery('', { prefix: true, limit: LIMIT });
    else timer = setTimeout(() => store.setQuery(input.value, { prefix: true, limit: LIMIT }), DEBOUNCE_MS);
  });

  input.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown' && options().length > 0) {
      event.preventDefault();
      results.focus();
      activate(options().find((option) => option.dataset.key === active) ?? options()[0]);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      openOption(options().find((option) => option.dataset.key === active) ?? options()[0]);
    } else if (event.key === 'Escape' && input.value !== '') {
      // Chromium clears a search box on Escape by itself, Firefox does not: cleared here for both.
      event.preventDefault();
      input.value = '';
      clearTimeout(timer);
      store.setQuery('', { prefix: true, limit: LIMIT });
    }
  });

  // The WAI-ARIA listbox pattern: focus stays on the list, the active option follows the arrows.
  results.addEventListener('keydown', (event) => {
    const all = options();
    const at = all.findIndex((option) => option.dataset.key === active);
    let handled = true;
    switch (event.key) {
      case 'ArrowDown':
        activate(all[Math.min(at + 1, all.length - 1)]);
        break;
      case 'ArrowUp':
        if (at <= 0) input.focus();
        else activate(all[at - 1]);
        break;
      case 'Home':
        activate(all[0]);
        break;
      case 'End':
        activate(all.at(-1));
        break;
      case 'Enter':
      case ' ':
        openOption(all[at]);
        break;
      case 'Escape':
        input.focus();
        break;
      default:
        handled = false;
    }
    if (handled) event.preventDefault();
  });

  results.addEventListener('focus', () => {
    if (active === undefined) activate(options()[0]);
  });

  results.addEventListener('click', (event) => {
    const option = event.target instanceof Element ? event.target.closest<HTMLElement>('[role="option"]') : null;
    if (!option) return;
    activate(option);
    openOption(option);
  });
}

/** One matching line as an option: its number, then its text with the matched words in <mark>. */
function optionOf(path: string, line: SearchLine, id: string): HTMLElement {
  const option = el('div', { attrs: { role: 'option', id, 'aria-selected': 'false' } }, el('span', { className: 'line-no', text: String(line.line) }));
  const text = el('span', { className: 'line-text' });
  let at = 0;
  for (const [start, end] of line.marks) {
    if (start > at) text.append(line.text.slice(at, start));
    text.append(el('mark', { text: line.text.slice(start, end) }));
    at = end;
  }
  text.append(line.text.slice(at));
  option.append(text);
  option.dataset.path = path;
  option.dataset.line = String(line.line);
  option.dataset.key = `${path}#${line.line}`;
  return option;
}
