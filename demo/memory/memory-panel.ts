// The memory panel: a keyboard-usable tree of /memories (tool.list(), hidden names too) and a viewer of the
// chosen file's raw text (tool.read()), both kept live by tool.subscribe (this tab's commands and other tabs').
// Names and contents are shown with textContent only.

import { MEMORY_ROOT } from '../../src/index.js';
import type { IndexedDBMemoryTool, MemoryChangeEvent } from '../../src/index.js';
import { byId, el, messageOf } from '../page/dom.js';
import { formatSize } from '../../src/index.js';
import { setupMemoryActions } from './memory-actions.js';
import { buildTree } from './memory-tree.js';
import type { MemoryNode } from './memory-tree.js';

export interface MemoryPanel {
  refresh(): Promise<void>;
  /** Opens `path` in the viewer as a click on it would, its folders opened and its `changed` lines (1-based) marked. */
  open(path: string, changed?: ReadonlySet<number>): Promise<void>;
  /** Opens `path` with its line `line` (1-based) marked as found and scrolled into view: a search hit. */
  reveal(path: string, line: number): Promise<void>;
}

/** `onChoose`: a file was opened in the viewer (the Forget field follows it). */
export function setupMemoryPanel(tool: IndexedDBMemoryTool, onChoose?: (path: string) => void): MemoryPanel {
  const tree = byId('memory-tree', HTMLUListElement);
  const empty = byId('tree-empty', HTMLElement);
  const viewer = byId('viewer', HTMLElement);
  const viewerPath = byId('viewer-path', HTMLElement);
  const status = byId('memory-status', HTMLElement);
  const collapsed = new Set<string>();
  let selected: string | undefined;
  let focused: string | undefined;
  // Paths just written, until when they glow in the tree (style.css .fresh).
  const fresh = new Map<string, number>();

  const showFile = async (path: string | undefined, changed?: ReadonlySet<number>, kind: MarkKind = 'changed') => {
    selected = path;
    for (const item of tree.querySelectorAll<HTMLElement>('[role="treeitem"][data-kind="file"]')) {
      item.setAttribute('aria-selected', String(item.dataset.path === path));
    }
    if (path === undefined) {
      viewerPath.textContent = `Choose a file in ${MEMORY_ROOT}.`;
      viewer.textContent = '';
      return;
    }
    viewerPath.textContent = path;
    try {
      const text = await tool.read(path);
      if (changed && changed.size > 0) showMarked(viewer, text, changed, kind);
      else viewer.textContent = text;
    } catch (error) {
      viewer.textContent = '';
      viewerPath.textContent = `${path}: ${messageOf(error)}`;
    }
  };

  // The WAI-ARIA tree pattern, flat: every treeitem a child of the tree, placed by aria-level, aria-posinset and
  // aria-setsize. A nested group would be part of its folder's name from content; flat, each name is its visible label.
  const render = (nodes: MemoryNode[]) => {
    const items: HTMLElement[] = [];
    const build = (list: MemoryNode[], level: number, shown: boolean) => {
      list.forEach((node, index) => {
        const label = el('span', { className: 'label' }, el('span', { className: 'twisty', attrs: { 'aria-hidden': 'true' } }));
        label.append(node.kind === 'folder' ? `${node.name}/` : node.name);
        const item = el(
          'li',
          {
            className: `item ${node.kind}`,
            title: node.path,
            attrs: {
              role: 'treeitem',
              'aria-level': String(level),
              'aria-posinset': String(index + 1),
              'aria-setsize': String(list.length),
              tabindex: '-1',
            },
          },
          label,
        );
        item.style.setProperty('--level', String(level));
        const glow = (fresh.get(node.path) ?? 0) - Date.now();
        if (glow > 0) {
          item.classList.add('fresh');
          // Without motion the glow does not fade: it goes when its time is up.
          setTimeout(() => item.classList.remove('fresh'), glow);
        }
        item.hidden = !shown;
        if (node.hidden) {
          // Named so Claude's `view` of the folder leaves it out; the person still sees it here. A description, so the
          // item's name stays the file's name.
          const id = `tree-hidden-${items.length}`;
          label.append(el('span', { className: 'hidden-tag', text: ' hidden', title: "Left out of Claude's view listings (a dot-name or node_modules)", attrs: { id, 'aria-hidden': 'true' } }));
          item.setAttribute('aria-describedby', id);
        }
        item.dataset.path = node.path;
        item.dataset.kind = node.kind;
        items.push(item);
        if (node.kind === 'file') {
          item.setAttribute('aria-selected', String(node.path === selected));
          label.append(el('span', { className: 'size', text: ` ${formatSize(node.size)}`, attrs: { 'aria-hidden': 'true' } }));
        } else {
          const open = !collapsed.has(node.path);
          item.setAttribute('aria-expanded', String(open));
          build(node.children, level + 1, shown && open);
        }
      });
    };
    build(nodes, 1, true);
    tree.replaceChildren(...items);
    empty.hidden = nodes.length > 0;
    const visible = visibleItems();
    const keep = visible.find((item) => item.dataset.path === (focused ?? selected)) ?? visible[0];
    if (keep) keep.tabIndex = 0;
    if (tree.contains(document.activeElement) === false && focused !== undefined) focused = keep?.dataset.path;
  };

  const allItems = () => [...tree.querySelectorAll<HTMLElement>('[role="treeitem"]')];
  const visibleItems = () => allItems().filter((item) => !item.hidden);
  const itemOf = (path: string | undefined) => allItems().find((item) => item.dataset.path === path);

  const refresh = async () => {
    try {
      const hadFocus = tree.contains(document.activeElement);
      render(buildTree(await tool.list()));
      if (hadFocus) focusItem(visibleItems().find((item) => item.dataset.path === focused));
    } catch (error) {
      status.textContent = `Could not list the memory: ${messageOf(error)}`;
    }
  };

  const focusItem = (item: HTMLElement | undefined) => {
    if (!item) return;
    for (const other of tree.querySelectorAll<HTMLElement>('[role="treeitem"]')) other.tabIndex = -1;
    item.tabIndex = 0;
    item.focus();
    focused = item.dataset.path;
  };

  const toggle = (item: HTMLElement, open: boolean) => {
    const path = item.dataset.path;
    if (path === undefined) return;
    if (open) collapsed.delete(path);
    else collapsed.add(path);
    item.setAttribute('aria-expanded', String(open));
    // A descendant shows when every folder above it, up to this one, is open.
    for (const other of allItems()) {
      const otherPath = other.dataset.path ?? '';
      if (!otherPath.startsWith(`${path}/`)) continue;
      let shown = true;
      for (let at = otherPath.lastIndexOf('/'); at > path.length; at = otherPath.lastIndexOf('/', at - 1)) {
        if (collapsed.has(otherPath.slice(0, at))) shown = false;
      }
      other.hidden = !(open && shown);
    }
  };

  const activate = (item: HTMLElement) => {
    if (item.dataset.kind === 'folder') toggle(item, item.getAttribute('aria-expanded') !== 'true');
    else {
      void showFile(item.dataset.path);
      if (item.dataset.path !== undefined) onChoose?.(item.dataset.path);
    }
  };

  tree.addEventListener('click', (event) => {
    const item = (event.target as Element).closest<HTMLElement>('[role="treeitem"]');
    if (!item) return;
    event.stopPropagation();
    focusItem(item);
    activate(item);
  });

  // The WAI-ARIA tree pattern: arrows move, Right/Left open/close folders, Enter/Space opens a file.
  tree.addEventListener('keydown', (event) => {
    const current = (event.target as Element).closest<HTMLElement>('[role="treeitem"]');
    if (!current) return;
    const items = visibleItems();
    const index = items.indexOf(current);
    const expanded = current.getAttribute('aria-expanded');
    let handled = true;
    switch (event.key) {
      case 'ArrowDown':
        focusItem(items[index + 1]);
        break;
      case 'ArrowUp':
        focusItem(items[index - 1]);
        break;
      case 'Home':
        focusItem(items[0]);
        break;
      case 'End':
        focusItem(items.at(-1));
        break;
      case 'ArrowRight':
        if (expanded === 'false') toggle(current, true);
        else if (expanded === 'true') focusItem(visibleItems()[index + 1]);
        break;
      case 'ArrowLeft':
        if (expanded === 'true') toggle(current, false);
        else focusItem(itemOf(current.dataset.path?.slice(0, current.dataset.path.lastIndexOf('/'))));
        break;
      case 'Enter':
      case ' ':
        activate(current);
        break;
      default:
        handled = false;
    }
    if (handled) event.preventDefault();
  });

  let pending: Promise<void> | undefined;
  const onChange = (event: MemoryChangeEvent) => {
    // Forgetting and clearing change the history; a forgotten path that was there comes as a delete too.
    const changes = event.changes.filter((change) => change.type !== 'forget' && change.type !== 'history-cleared');
    if (changes.length === 0) return;
    if (event.source === 'remote') {
      status.textContent = `Changed in another tab: ${changes.map((change) => change.path).join(', ')}`;
    }
    let next = selected;
    for (const change of changes) {
      if (next === undefined) break;
      if (change.type === 'rename' && (next === change.from || next.startsWith(`${change.from}/`))) {
        next = change.path + next.slice(change.from.length);
      } else if (change.type === 'delete' && (next === change.path || next.startsWith(`${change.path}/`))) {
        next = undefined;
      }
    }
    const until = Date.now() + FRESH_MS;
    for (const change of changes) if (change.type !== 'delete') fresh.set(change.path, until);
    for (const [path, end] of fresh) if (end <= Date.now()) fresh.delete(path);
    const viewed = selected;
    const touched = changes.some(
      (change) => change.path === viewed || (change.type === 'rename' && change.from === viewed),
    );
    // Several changes in a row make one refresh.
    pending ??= Promise.resolve().then(async () => {
      pending = undefined;
      await refresh();
    });
    void pending.then(() => {
      if (next !== viewed || touched) return showFile(next);
      return undefined;
    });
  };
  tool.subscribe(onChange);

  const open = async (path: string, changed?: ReadonlySet<number>, kind?: MarkKind) => {
    for (let at = path.lastIndexOf('/'); at > 0; at = path.lastIndexOf('/', at - 1)) {
      collapsed.delete(path.slice(0, at));
    }
    await refresh();
    await showFile(path, changed, kind);
    onChoose?.(path);
  };

  const reveal = async (path: string, line: number) => {
    await open(path, new Set([line]), 'found');
    // The line a third down the viewer, with what comes before it in sight; the page moves only as far as it must.
    const mark = viewer.querySelector('mark.found');
    if (!mark) return;
    viewer.scrollTop += mark.getBoundingClientRect().top - viewer.getBoundingClientRect().top - viewer.clientHeight / 3;
    mark.scrollIntoView({ block: 'nearest' });
  };

  // New file, Edit, Rename and Delete: the person's own writes (memory-actions.ts).
  setupMemoryActions(tool, { open });
  viewerPath.textContent = `Choose a file in ${MEMORY_ROOT}.`;
  return { refresh, open, reveal };
}

/** How long a path just written glows in the tree: the length of its fading in style.css. */
const FRESH_MS = 4_000;

/** How a line is marked in the viewer: written by the last command, or found by a search. */
type MarkKind = 'changed' | 'found';

/** `text` in the viewer with its `changed` lines in <mark>; the viewer's text stays exactly the file's. */
function showMarked(viewer: HTMLElement, text: string, changed: ReadonlySet<number>, kind: MarkKind): void {
  const lines = text.split('\n');
  viewer.replaceChildren(
    ...lines.map((line, index) => {
      const end = index < lines.length - 1 ? '\n' : '';
      const text = line + end;
      return changed.has(index + 1) ? el('mark', { className: kind, text }) : document.createTextNode(text);
    }),
  );
}
