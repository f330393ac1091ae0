// The Memory pane's buttons on files: New file, and Edit, Rename and Delete for the open file. Only the buttons are
// built on first load; the editor behind them (memory-editor.ts: its forms, the tool's calls, its CSS) loads when they
// are first reached, or when the page is idle so that editing works once the network is gone.

import type { IndexedDBMemoryTool } from '../../src/index.js';
import { byId, el } from '../page/dom.js';
import { prefetchAllowed } from '../page/lazy-code.js';
import { panelOnDemand } from '../page/panel-on-demand.js';
import type { MemoryPanel } from './memory-panel.js';

export type MemoryAction = 'new' | 'edit' | 'rename' | 'delete';

/** What the editor is handed: the buttons, the place for its forms, and the file open in the viewer. */
export interface MemoryActionParts {
  buttons: Record<MemoryAction, HTMLButtonElement>;
  area: HTMLElement;
  current(): string | undefined;
}

/** `follow(path)`: the file the viewer shows now (undefined: none), which Edit, Rename and Delete act on. */
export function setupMemoryActions(tool: IndexedDBMemoryTool, panel: Pick<MemoryPanel, 'open'>): { follow(path: string | undefined): void } {
  const viewerPath = byId('viewer-path', HTMLElement);
  const button = (text: string) => el('button', { text, attrs: { type: 'button' } });
  const buttons = { new: button('New file'), edit: button('Edit'), rename: button('Rename…'), delete: button('Delete…') };
  const bar = el('div', { className: 'buttons memory-actions', attrs: { role: 'group', 'aria-label': 'File actions' } }, ...Object.values(buttons));
  const area = el('div', { className: 'memory-editor' });
  viewerPath.after(bar, area);
  let current: string | undefined;

  const follow = (path: string | undefined) => {
    current = path;
    for (const each of [buttons.edit, buttons.rename, buttons.delete]) each.hidden = path === undefined;
  };
  follow(undefined);

  const editor = panelOnDemand(bar, async () => {
    const { setupMemoryEditor } = await import('./memory-editor.js');
    setupMemoryEditor(tool, panel, { buttons, area, current: () => current });
  });
  if (prefetchAllowed()) {
    const load = () => void editor.load().catch(() => undefined); // tried again on first use
    if (typeof requestIdleCallback === 'function') requestIdleCallback(load, { timeout: 3_000 });
    else setTimeout(load, 1_000);
  }
  return { follow };
}
