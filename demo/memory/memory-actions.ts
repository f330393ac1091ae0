// Loads the Memory pane's editor (memory-editor.ts: New file, Edit, Rename, Delete, their buttons and forms) when
// the pane is first reached, or when the page is idle, so the first load carries none of it.

import { isMemoryToolError } from '../../src/index.js';
import type { IndexedDBMemoryTool } from '../../src/index.js';
import { byId } from '../page/dom.js';
import { prefetchAllowed } from '../page/lazy-code.js';
import { panelOnDemand } from '../page/panel-on-demand.js';
import type { MemoryPanel } from './memory-panel.js';

export function setupMemoryActions(tool: IndexedDBMemoryTool, panel: Pick<MemoryPanel, 'open'>): void {
  // A button of the pane pressed before then (Reload now) is pressed again once it is in: nothing is lost.
  const editor = panelOnDemand(byId('memory', HTMLElement), async () => {
    // The guard is passed in: imported there too, it would be split into a chunk of its own on the first load.
    (await import('./memory-editor.js')).setupMemoryEditor(tool, panel, isMemoryToolError);
  });
  if (prefetchAllowed()) setTimeout(() => void editor.load().catch(() => undefined), 1_000);
}
